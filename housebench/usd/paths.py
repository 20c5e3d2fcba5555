"""Where things live in a composed housebench stage: the prim paths every layer and reader agree on."""

from __future__ import annotations

HOUSE_ROOT = "/World/House"  # furniture, walls and articulated parts
ROBOT_PATH = "/World/Robot"
PROPS_PATH = "/World/Props"  # a task layer's objects
CAMERAS = "/World/Cameras"
TOPDOWN = "topdown"  # the house's overview camera (MuJoCo names cameras by their path under CAMERAS)
TOPDOWN_CAMERA = f"{CAMERAS}/{TOPDOWN}"
COLLISION_GROUPS = "/World/CollisionGroups"  # UsdPhysics collision groups: who touches whom
