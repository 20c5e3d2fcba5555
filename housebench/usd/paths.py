"""Where things live in a composed housebench stage: the prim paths every layer and reader agree on."""

from __future__ import annotations

HOUSE_ROOT = "/World/House"  # furniture, walls and articulated parts
ROBOT_PATH = "/World/Robot"
PROPS_PATH = "/World/Props"  # a task layer's objects
CAMERAS = "/World/Cameras"
TOPDOWN = "topdown"  # the house's overview camera (MuJoCo names cameras by their path under CAMERAS)
TOPDOWN_CAMERA = f"{CAMERAS}/{TOPDOWN}"
COLLISION_GROUPS = "/World/CollisionGroups"  # UsdPhysics collision groups: who touches whom
LOOKS = "/World/Looks"  # materials: the house's physics material, and its textured ones (below)
CEILING = "/World/Ceiling"  # a quad per room, visual only
LIGHTS = "/World/Lights"  # a UsdLux.SphereLight per room
TILE_ATTR = "housebench:tileMetres"  # on a textured material: metres one texture tile spans on any face
DIFFUSE_ATTR = "housebench:diffuse"  # on a room light: MuJoCo's diffuse for it
