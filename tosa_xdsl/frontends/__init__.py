"""Frontends: each reads a foreign format into its own representation, then a legalization
pass turns it into TOSA 1.0.1: `tflite/` (.tflite -> tfl -> tosa-legalize-tfl), `legacy/`
(pre-1.0 TOSA -> tosa-upgrade-to-1.0), `nnef/` (NNEF 2.0 / SkriptND). `legalize_common.py`
holds the legalization guide's common functions, shared by every TF/TFLite legalization."""
