"""SHA-256 of ``thirteen/data/setter_removal.npz``, written by scripts/make_setter_removal.py."""

REMOVAL_SHA256 = "20582c145d57956b6bf964a017176438472da3f10ed00d190a7ae95a70343932"
