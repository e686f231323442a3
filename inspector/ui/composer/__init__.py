"""The call composer: a schema-driven form for one tool, prompt or resource template, and the dialog around it."""
