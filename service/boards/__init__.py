"""The board renderers: one SVG drawing per game, in JavaScript, shared by the HTML replay and the table page."""
