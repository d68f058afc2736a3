"""How colours look to readers with colour-vision deficiency or on a greyscale print, and how
far apart two colours look: what the chart palette is checked with.

- ``simulate``: deuteranopia or protanopia, Machado, Oliveira and Fernandes (2009), severity
  1.0, applied to linear RGB (the matrices below are the paper's Table 1 values at severity
  1.0, as published on the authors' page, https://www.inf.ufrgs.br/~oliveira/pubs_files/CVD_Simulation/CVD_Simulation.html);
- ``to_lab``: sRGB (D65) to CIELAB;
- ``delta_e``: the CIEDE2000 colour difference (Sharma, Wu and Dalal 2005);
- ``lightness``: CIE L*, what a greyscale print keeps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["DEFICIENCIES", "delta_e", "lightness", "simulate", "to_lab"]

DEFICIENCIES: dict[str, np.ndarray] = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}
"""Machado et al. (2009), IEEE TVCG 15(6), Table 1, severity 1.0: linear RGB to linear RGB."""

_RGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                        [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])
_WHITE = _RGB_TO_XYZ.sum(axis=1)  # D65, Y = 1


def _linear(rgb: Sequence[float]) -> np.ndarray:
    """sRGB components in [0, 1] to linear RGB (IEC 61966-2-1)."""
    c = np.clip(np.asarray(rgb, dtype=float)[:3], 0.0, 1.0)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _encoded(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: Sequence[float], deficiency: str) -> np.ndarray:
    """``rgb`` (sRGB, 0 to 1) as seen with ``deficiency`` (a key of DEFICIENCIES), as sRGB."""
    return _encoded(DEFICIENCIES[deficiency] @ _linear(rgb))


def to_lab(rgb: Sequence[float]) -> np.ndarray:
    """sRGB (0 to 1) to CIELAB (L* from 0 to 100), D65 white."""
    xyz = (_RGB_TO_XYZ @ _linear(rgb)) / _WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def lightness(rgb: Sequence[float]) -> float:
    """CIE L* of ``rgb``: the grey a greyscale print turns it into (0 black, 100 white)."""
    return float(to_lab(rgb)[0])


def delta_e(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """CIEDE2000 difference of two CIELAB colours (kL = kC = kH = 1); about 1 is the smallest
    difference seen between large patches side by side."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    terms = (dl / s_l, dc / s_c, dh_big / s_h)
    return math.sqrt(terms[0] ** 2 + terms[1] ** 2 + terms[2] ** 2 + r_t * terms[1] * terms[2])
