"""Demonstrations: episodes recorded step by step (``record``, ``recording``), replayed from any recorded
state (``replay``), exported as a LeRobot v3 dataset (``lerobot``) or robomimic HDF5 (``hdf5``), and
generated in bulk from the train split (``generate``)."""
