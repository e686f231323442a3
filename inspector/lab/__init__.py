"""The statelessness lab (``inspector lab``): checks that drive a server on purpose, across two instances.

Seed 004's random-routing test (``stateless``: discover on A and the calls on B; each multi-round call crossing
instances at every retry; a task made on A looked at from B), requestState tampering (``tamper``: the only place
the inspector ever changes a requestState, every row labelled an experiment) and the era A/B (``eras``), against the
user's own server. A face like the headless CLI and replay: it drives sessions the composition root makes for it
(``LabTargets``), reads their timelines, and hands back a ``LabReport``; a screen runs the same ``Lab`` object and
listens to its events.
"""
