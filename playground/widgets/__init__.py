"""Small Qt pieces any panel or the shell may use: `errors` (a slot's exception logged and shown, never the
end of the app: `guarded`, `report_handled`), `elided_label` (one line that ends in "…" with its whole
text in the tooltip), `file_dialogs` (every file dialog opening in one remembered folder),
`whole_entries_combo` (a combo box as wide as its longest entry, in the font it has now), `wheel_guard`
(the mouse wheel scrolls a panel; it edits a spin box, combo box or slider only once that has focus),
`screen_fit` (a dialog opens whole on its screen), `spoken` (read-outs a screen reader reads with their
meaning and value; messages announced to it), `target_style` (the app's Fusion: every control 24 px at the
least, check boxes ringed at 3:1) and `tinted_icon` (a style's icon in the theme's text colour).

May import: Qt and `playground.common`. Never a panel, the canvas or the shell.
"""
