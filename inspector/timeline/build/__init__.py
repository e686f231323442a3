"""The one builder of the timeline: session-log entries in, Timeline model out (live and replay alike)."""
