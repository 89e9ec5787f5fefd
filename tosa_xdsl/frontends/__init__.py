"""Model frontends: each reads a foreign format into its own dialect, then a legalization
pass turns that dialect into TOSA (tflite/: .tflite -> tfl -> tosa)."""
