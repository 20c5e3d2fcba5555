"""Component tasks: a skill library verb as a task of its own, from scenario files (:mod:`.scenario`)."""
