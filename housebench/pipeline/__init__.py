"""The stage functions: what each DVC stage (``stages/``) and the nightly flow (``flows/``) run."""
