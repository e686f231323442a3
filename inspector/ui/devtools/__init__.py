"""Tools for the people who build the inspector: the SVG screenshots and the preview of every dialog."""
