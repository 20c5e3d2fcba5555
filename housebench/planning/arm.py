"""Arm motion in the house: collision checks of joint paths and OMPL RRT-Connect around what they hit.

The planning model is the kinematic robot among static copies of the house's obstacle boxes and a
floor plane, the boxes of each articulated part (a door's panel and handle) on a mocap body turned or
slid to the part's measured joint value (a door held shut in the model stood across the open fridge:
the arm's way round it swung the real door), the props as mocap bodies (a box of the asset's size; a
container as its floor and four walls, so the hand may reach in), and for every prop a box on the
gripper link, switched on while that prop is held (attached at the measured pose relative to the
hand, detached once let go). The arm (the shoulder pan link and below) and the held box are checked
against the house and the props, the held box against the robot's own base, torso column and head too
(a book held by its end, swung past the base on the way to the carry, turned in the fingers); the base
and the column themselves stand where the stance footprint put them. Contacts a motion starts in (the
fingers round what they just let go) do not count against it while they get no closer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import mujoco
import numpy as np
from ompl import base as ob
from ompl import geometric as og
from ompl import util as ou

from housebench.annotations.schema import AssetAnnotation, SceneAnnotations
from housebench.robot.fetch import PREFIX
from housebench.robot.model import fetch_spec
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation

ARM_ROOT = f"{PREFIX}shoulder_pan_link"  # this body and those below it move in an arm motion
HAND = f"{PREFIX}gripper_link"
MARGIN = 0.01  # clearance a free state keeps from the house and the props, m
STEP = 0.04  # largest joint change (rad, m for the torso) between checked states of a path
WALL = 0.006  # least wall thickness of a container's boxes, m
CHECKS = 20000  # state checks RRT-Connect may spend (about 1 s), and the simplification as many again
DEEPER = 0.003  # a contact a motion starts in may get this much closer, m
FAR = (0.0, 0.0, -100.0)  # where a prop that is held or absent is parked
HOUSE, BODY = 1, 2  # collision bits: the house and the props; the robot's base, column and head

BOX = mujoco.mjtGeom.mjGEOM_BOX
Pair = tuple[int, int]

ou.setLogLevel(ou.LOG_WARN)  # OMPL's info lines on every solve


def prop_boxes(asset: AssetAnnotation) -> list[tuple[np.ndarray, np.ndarray]]:
    """(centre, half extents) of the boxes standing in for ``asset`` in its own frame: the extent box,
    or for a container its floor slab and four walls up to the rim."""
    sx, sy, sz = asset.size
    lo = -asset.bottom_offset
    profile = asset.container
    if profile is None:
        return [(np.array([0.0, 0.0, lo + sz / 2]), np.array([sx, sy, sz]) / 2)]
    ix, iy = profile.inner_half_extents
    tx, ty = max(sx / 2 - ix, WALL), max(sy / 2 - iy, WALL)
    floor, rim = max(profile.floor_z, WALL), profile.rim_z
    h = rim / 2
    return [
        (np.array([0.0, 0.0, lo + floor / 2]), np.array([sx / 2, sy / 2, floor / 2])),
        (np.array([sx / 2 - tx / 2, 0.0, lo + h]), np.array([tx / 2, sy / 2, h])),
        (np.array([-sx / 2 + tx / 2, 0.0, lo + h]), np.array([tx / 2, sy / 2, h])),
        (np.array([0.0, sy / 2 - ty / 2, lo + h]), np.array([sx / 2, ty / 2, h])),
        (np.array([0.0, -sy / 2 + ty / 2, lo + h]), np.array([sx / 2, ty / 2, h])),
    ]


def _turn(axis: np.ndarray, angle: float) -> np.ndarray:
    """The quaternion of a turn by ``angle`` about the unit ``axis``."""
    return np.array([np.cos(angle / 2), *(np.sin(angle / 2) * axis)])


def _quat(matrix: np.ndarray) -> np.ndarray:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.ascontiguousarray(matrix).ravel())
    return q


class ArmScene:
    """The planning model of one scene (build once per episode; not thread-safe)."""

    def __init__(self, scene: SceneAnnotations) -> None:
        spec = mujoco.MjSpec()
        spec.attach(fetch_spec(contype=HOUSE, conaffinity=0), prefix=PREFIX, frame=spec.worldbody.add_frame())
        world = spec.worldbody
        static = {"contype": 0, "conaffinity": HOUSE, "margin": MARGIN}
        world.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 1], **static)
        self.parts = {p.name: p for p in scene.house.articulated}
        moving = {p: world.add_body(name=f"part:{p}", mocap=True, pos=self.parts[p].pivot) for p in self.parts}
        for k, obstacle in enumerate(scene.house.obstacles):
            lo, hi = np.array(obstacle.box[:3]), np.array(obstacle.box[3:])
            half = (hi - lo) / 2
            part = next((p for p in self.parts if obstacle.name.startswith(p + "/")), None)
            body, origin = (moving[part], np.asarray(self.parts[part].pivot)) if part else (world, np.zeros(3))
            body.add_geom(name=f"{obstacle.name}#{k}", type=BOX, pos=lo + half - origin, size=half, **static)
        hand = spec.body(HAND)
        self.props = sorted(scene.objects)
        for name in self.props:
            asset = scene.objects[name].asset
            body = world.add_body(name=f"prop:{name}", mocap=True, pos=FAR)
            for k, (centre, half) in enumerate(prop_boxes(asset)):
                body.add_geom(name=f"{name}#{k}", type=BOX, pos=centre, size=half, **static)
            hand.add_body(name=f"held:{name}").add_geom(  # a body of its own: the hand's bounding tree is fixed
                name=f"held:{name}",
                type=BOX,
                size=np.array(asset.size) / 2,
                contype=0,
                conaffinity=0,
                group=3,
                material="",
            )
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        m = self.model
        root = m.body(ARM_ROOT).id
        arm_bodies = {b for b in range(m.nbody) if self._below(b, root)}
        robot = m.geom_contype == HOUSE
        for g in np.nonzero(robot)[0]:
            if m.geom_bodyid[g] not in arm_bodies:  # base, torso column, head: met by the held box alone
                m.geom_contype[g], m.geom_conaffinity[g] = 0, BODY
                m.body_conaffinity[m.geom_bodyid[g]] = BODY
        self._held_geom = {name: m.geom(f"held:{name}").id for name in self.props}
        self._asset = {name: scene.objects[name].asset for name in self.props}
        self._adr = {m.joint(j).name: int(m.jnt_qposadr[j]) for j in range(m.njnt)}
        part_bodies = {m.body(f"part:{p}").id for p in self.parts}
        self.part_geoms = {g for g in range(m.ngeom) if int(m.geom_bodyid[g]) in part_bodies}
        self.held: str | None = None

    def _below(self, body: int, root: int) -> bool:
        while body > 0:
            if body == root:
                return True
            body = int(self.model.body_parentid[body])
        return False

    def sync(
        self,
        joints: Mapping[str, float],
        objects: Mapping[str, ObjectState],
        held: str | None,
        parts: Mapping[str, float] | None = None,
    ) -> None:
        """Props where ``objects`` has them; ``held`` (or none) attached to the hand where it is now
        relative to the hand at ``joints``; the articulated parts at their ``parts`` joint values (a part
        not named: closed)."""
        m, d = self.model, self.data
        self.set_joints(joints)
        for name, part in self.parts.items():
            mocap = m.body_mocapid[m.body(f"part:{name}").id]
            moved = (parts or {}).get(name, part.closed) - part.closed
            axis = np.asarray(part.axis, float)
            if part.joint == "revolute":
                d.mocap_pos[mocap], d.mocap_quat[mocap] = part.pivot, _turn(axis, moved)
            else:
                d.mocap_pos[mocap], d.mocap_quat[mocap] = np.asarray(part.pivot) + axis * moved, (1.0, 0, 0, 0)
        mujoco.mj_kinematics(m, d)
        for name in self.props:
            mocap = m.body_mocapid[m.body(f"prop:{name}").id]
            pose = objects.get(name)
            if pose is None or name == held:
                d.mocap_pos[mocap] = FAR
                continue
            d.mocap_pos[mocap] = pose.pos
            d.mocap_quat[mocap] = pose.quat
        m.geom_contype[list(self._held_geom.values())] = 0
        if held is not None:
            geom, pose, asset = self._held_geom[held], objects[held], self._asset[held]
            body = m.geom_bodyid[geom]
            hand = m.body(HAND).id
            r_hand, r_obj = d.xmat[hand].reshape(3, 3), rotation(pose.quat)
            centre = np.asarray(pose.pos) + r_obj @ [0.0, 0.0, asset.size[2] / 2 - asset.bottom_offset]
            m.body_pos[body] = r_hand.T @ (centre - d.xpos[hand])
            m.body_quat[body] = _quat(r_hand.T @ r_obj)
            m.geom_contype[geom] = m.body_contype[body] = HOUSE | BODY  # the broad phase reads the body's class too
        self.held = held
        mujoco.mj_kinematics(m, d)

    def set_joints(self, joints: Mapping[str, float]) -> None:
        for name, value in joints.items():
            if name in self._adr:
                self.data.qpos[self._adr[name]] = value

    def contacts(self, joints: Mapping[str, float] | None = None) -> dict[Pair, float]:
        """Geom pairs (arm or held box, house or prop) closer than ``MARGIN`` at ``joints`` (default: as
        set), each with its least distance (negative: penetrating)."""
        if joints is not None:
            self.set_joints(joints)
        mujoco.mj_kinematics(self.model, self.data)
        mujoco.mj_collision(self.model, self.data)
        c, out = self.data.contact, {}
        for a, b, dist in zip(c.geom1.tolist(), c.geom2.tolist(), c.dist.tolist()):
            out[a, b] = min(dist, out.get((a, b), MARGIN))
        return out

    def touches_parts(self, joints: Mapping[str, float] | None = None) -> bool:
        """Whether the arm or the held box comes within ``MARGIN`` of an articulated part (an open door)."""
        return any(a in self.part_geoms or b in self.part_geoms for a, b in self.contacts(joints))

    def names(self, pairs: Iterable[Pair]) -> list[str]:
        """Readable pairs: ``body:geom`` of each side."""
        m = self.model

        def one(g: int) -> str:
            return m.geom(g).name or m.body(int(m.geom_bodyid[g])).name

        return sorted(f"{one(a)}|{one(b)}" for a, b in pairs)


class ArmPlanner:
    """Collision checks and RRT-Connect over the joints ``names`` of an :class:`ArmScene` (the other
    joints stay as synced); the k-th plan is seeded ``seed + k``."""

    def __init__(self, scene: ArmScene, names: Sequence[str], seed: int) -> None:
        self.scene, self.names, self.seed, self.plans = scene, list(names), seed, 0
        m = scene.model
        ids = [m.joint(n).id for n in self.names]
        self.low, self.high = m.jnt_range[ids, 0].copy(), m.jnt_range[ids, 1].copy()
        self.allowed: dict[Pair, float] = {}

    def _q(self, q: Sequence[float]) -> dict[str, float]:
        return dict(zip(self.names, map(float, q)))

    def start(self, q: Sequence[float]) -> dict[Pair, float]:
        """Take the contacts at ``q`` (where a motion starts) as allowed for the motions that follow, as
        long as they get no closer."""
        self.allowed = self.scene.contacts(self._q(q))
        return self.allowed

    def hits(self, q: Sequence[float]) -> list[Pair]:
        """The pairs in contact at ``q`` beyond what :meth:`start` allowed."""
        near = self.scene.contacts(self._q(q))
        return [p for p, dist in near.items() if dist < self.allowed.get(p, np.inf) - DEEPER]

    def free(self, q: Sequence[float]) -> bool:
        return not self.hits(q)

    def first_hit(self, path: Sequence[Sequence[float]]) -> list[Pair]:
        """The first contact along the straight joint segments through ``path`` (checked every
        ``STEP``), or [] when they keep clear."""
        for a, b in zip(path, path[1:]):
            a, b = np.asarray(a, float), np.asarray(b, float)
            n = max(1, int(np.ceil(np.max(np.abs(b - a)) / STEP)))
            for k in range(1, n + 1):
                if hits := self.hits(a + (b - a) * k / n):
                    return hits
        return []

    def plan(self, start: Sequence[float], goal: Sequence[float], checks: int = CHECKS) -> list[np.ndarray]:
        """A collision-free joint path from ``start`` to ``goal`` (both included, simplified), or [] when
        the goal collides or RRT-Connect finds none within ``checks`` state checks (as many again for
        the simplification: budgets in checks, not seconds, and a seed per call keep it deterministic)."""
        if not self.free(goal):
            return []
        self.plans += 1
        ou.setLogLevel(ou.LOG_NONE)  # reseeding after the first plan is what we mean: say nothing
        ou.RNG.setSeed(self.seed + self.plans)  # every RNG this plan creates draws from here (0: OMPL's own)
        ou.setLogLevel(ou.LOG_WARN)
        dim = len(self.names)
        space = ob.RealVectorStateSpace(dim)
        bounds = ob.RealVectorBounds(dim)
        for k, (lo, hi) in enumerate(zip(self.low, self.high)):
            bounds.setLow(k, float(lo))
            bounds.setHigh(k, float(hi))
        space.setBounds(bounds)
        setup = og.SimpleSetup(space)
        count = [0]

        def valid(state) -> bool:
            count[0] += 1
            return self.free([state[k] for k in range(dim)])

        setup.setStateValidityChecker(valid)
        info = setup.getSpaceInformation()
        info.setStateValidityCheckingResolution(STEP / space.getMaximumExtent())
        setup.setPlanner(og.RRTConnect(info))
        states = []
        for q in (start, goal):
            state = space.allocState()
            for k, v in enumerate(q):
                state[k] = float(np.clip(v, self.low[k], self.high[k]))
            states.append(state)
        setup.setStartAndGoalStates(*states)
        if not setup.solve(ob.PlannerTerminationCondition(lambda: count[0] > checks)):
            return []
        if not setup.haveExactSolutionPath():
            return []
        budget = count[0] + checks
        setup.simplifySolution(ob.PlannerTerminationCondition(lambda: count[0] > budget))
        path = setup.getSolutionPath()
        return [np.array([path.getState(i)[k] for k in range(dim)]) for i in range(path.getStateCount())]
