"""What the arena needs of the operating system: files written atomically (``files``), the
cache directory (``cachedir``), TOML tables checked against their fields (``schema``), the
user's Ctrl-C told apart from an agent's KeyboardInterrupt (``interrupts``), and the garbage
collector kept away from the objects of large libraries (``collector``), freed heap pages
handed back to the system (``heap``), and how the arena was installed, which says how to add
an optional extra (``install``)."""
