"""The look of the terminal game: one style sheet for every screen (Textual CSS)."""

from __future__ import annotations

from typing import Final

CSS: Final = """
TooSmall { display: none; }
App.-too-small TooSmall {
    display: block; width: 100%; height: 100%; content-align: center middle;
    text-style: bold; background: $error 30%;
}
App.-too-small .body { display: none; }
.body { height: 1fr; }
.title { text-style: bold; background: $primary 40%; padding: 0 1; height: auto; }
.keys { color: $text-muted; padding: 0 1; height: auto; }
.error { color: $error; padding: 0 1; height: auto; }
.note { color: $text-muted; padding: 0 1; height: auto; }
#header { padding: 0 1; height: auto; background: $primary 20%; }
#players { height: auto; padding: 0 1; }
#pile { height: auto; padding: 0 1; border-top: solid $primary 30%; }
#log { height: 1fr; min-height: 3; padding: 0 1; border-top: solid $primary 30%; }
#hand-title { height: auto; padding: 0 1; border-top: solid $primary 30%; }
#hand { height: auto; min-height: 1; padding: 0 1; }
#status { height: auto; padding: 0 1; }
#last { height: auto; padding: 0 1; }
#cover { height: 1fr; content-align: center middle; text-style: bold; }
#winner, #totals, #offer, .dim { height: auto; padding: 0 1; margin: 1 0 0 0; }
FoxModal { align: center middle; }
.dialog {
    width: 96%; height: auto; max-height: 96%; border: thick $primary; background: $surface;
    padding: 0 1;
}
.dialog VerticalScroll { height: auto; max-height: 80vh; }
.dialog VerticalScroll > Static { width: 100%; }
#stock { height: auto; padding: 0 1; }
#form { height: 1fr; }
.row { height: auto; margin: 0 1; }
.row .label { width: 24; padding: 0 1 0 0; }
.row Select { width: 30; }
.row Input { width: 24; }
.explain { color: $text-muted; height: auto; margin: 0 1 0 3; }
SetupScreen .row:focus-within .label { text-style: bold; color: $accent; }
SetupScreen Select:focus > SelectCurrent { background: $accent 60%; text-style: bold; }
SetupScreen Input:focus { background: $accent 60%; text-style: bold; }
SetupScreen Button:focus { background: $accent; text-style: bold reverse; }
#buttons { height: auto; margin: 0 1; }
#buttons Button { margin: 0 2 0 0; }
"""
