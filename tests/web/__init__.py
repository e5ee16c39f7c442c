"""The web game's page: its routes and files, and the page played in a browser (browser/)."""
