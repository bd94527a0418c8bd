"""Small Qt pieces any panel or the shell may use: `errors` (a slot's exception logged and shown, never the
end of the app: `guarded`, `report_handled`), `elided_label` (one line that ends in "…" with its whole
text in the tooltip), `file_dialogs` (every file dialog opening in one remembered folder) and `wheel_guard`
(the mouse wheel scrolls a panel; it edits a spin box, combo box or slider only once that has focus) and
`spoken` (read-outs a screen reader reads with their meaning and value; messages announced to it).

May import: Qt and `playground.common`. Never a panel, the canvas or the shell.
"""
