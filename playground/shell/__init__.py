"""The shell: the main window and everything around the three panels. It composes; no class does menus, docks,
files and tabs at once.

- `main_window`: `MainWindow`, the panels in tabs around one graph document; its public methods are the shell's
  interface (the Learn panel's driver, the command line and `playground.show` drive the panels through it).
- Files: `document_files` (the editor's graph as a file, its title), `opening` (any file kind, told by its
  content in `file_kinds`), `recent_files`, `graph_exports`, `training_setups` (the training tab's setups).
- Menus: `menus` (File, Edit), `view_menu`, `help_menu`, `actions` (how an action is made).
- The window around the panels: `panel_tabs`, `tab_status` and `status_bar`, `learn_dock` (the Learn panel as a
  dock) and `dock_share` (its share of the width), `presentation` (presentation mode, F11), `theme`,
  `window_size`.
- Lose no work: `autosave` (the session's recovery set, written in the background), `recovery` (restoring it
  at the next start, Discard, SIGTERM and SIGHUP), `recovery_set` (what a set holds, Qt-free).
- Starting: `cli` (the command line, `python -m playground`), `show_graph` (`playground.show`), `qt_platform`
  (Qt's platform check), `gc_pauses`, `names`.

May import: anything of the app. Nothing imports it but `playground/__init__` (lazily, in `show`) and
`playground/__main__`.
"""
