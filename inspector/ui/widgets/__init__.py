"""Widgets of the inspector's main screen. They render attributes they are given and post messages up."""
