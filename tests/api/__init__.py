"""The HTTP server as a whole: errors, OpenAPI, docs page, ops, words, workers, contract."""
