"""The shell: the main window and everything around the panels."""
