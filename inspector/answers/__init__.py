"""Where answers to input requests come from: the UI, scripted files, the stub model, policies. One interface."""
