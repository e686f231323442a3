"""The login face: the login screen, how a person logs in from the TUI, and the watch that brings the screen up."""
