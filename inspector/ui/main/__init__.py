"""The main screen and its collaborators: the live session, the long work (cancel, subscriptions, tasks), the
calls it sent, the panes' layout, what the detail pane shows, a recording's walk and edit-and-resend."""
