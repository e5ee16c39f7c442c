"""The web page driven in headless Chromium (marked browser; make browser-deps)."""
