"""A learned baseline for housebench: an MLP that maps what the robot sees of itself and of one object to a chunk of
the next actions, trained by behaviour cloning on a LeRobot dataset that ``housebench dataset export`` wrote."""

__version__ = "0.1.0"
