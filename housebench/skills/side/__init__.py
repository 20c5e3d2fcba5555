"""Side grasps under a ceiling (shelf levels, fridge shelves, a microwave cavity): the hand enters level
from the support's open side, below the ceiling, and withdraws straight back out.

- open side (:func:`open_edges`): the edges of a support that no wall of the house walls off (a shelf's
  back, sides, the room's wall behind it; an appliance's door is no wall); every edge of an open top.
- ``pick`` from the side (:class:`SidePick`): the stance faces an open edge, square to the item first;
  the hand approaches level (fingers closing horizontally across a side of the item that fits), tipped
  down for a short item so the palm and the fingertips clear the surface (a box a few degrees off
  square to the fingers where its extent across them fits: it turns square as they close), within
  ``max_skew`` of straight in, else aslant up to ``wide_skew`` (an item lengthwise along the edge: the
  arm at the stance checked clear of the house, the way to the pre-grasp planned round it); pre-grasp
  outside the edge, in to the fingertips 2 cm short, the aim corrected by the measured offset, in (an item too
  short for the hand to get down to only to its near face: :func:`grip_depth`), close, check both fingers touch
  (``MISSED``), lift ``lift_m`` (less where the ceiling is nearer), straight back out, check the hold
  (``DROPPED``), carry pose with the hand as it holds. Under a ceiling, an item that only aslant
  ways fit, or none fits or reaches, and that the fingers could take across its narrow side is first
  turned by straight-in strokes of the closed fingers at its end farther in (``turns``: a stroke pushed off the
  centre turns an item lengthwise along the edge towards the edge's normal) until a straight pinch fits; where
  still none fits, the item is taken by its outline (:func:`outline_entries`): the annotated sections of its
  collision hulls give a level pinch that closes on a narrower part of it (the rubber duck's head, 4 cm wide,
  over a body too wide for the fingers at any yaw but along it).
- ``place`` from the side (:class:`SidePlace`): the held object turned about the vertical (hand and
  base) to face an open edge, carried in level ``raise_m`` over its release height, lowered, released
  ``skills.place.drop_m`` over the surface, the hand drawn straight back out. Under a ceiling the spot is the free one
  nearest the middle of the opening that no open door blocks; on an open top, nearest the robot, ``open_keep_m``
  further off the edges than its footprint; either way no other object lies between it and the edge.

Modules, one a job: ``opening`` (which edges are open, the stances facing one, the way back out), ``fit`` (which
level pinches fit the item: pitch, height, depth, yaws), ``entries`` (a way in: :class:`Entry`, the first that a stance
reaches, the outline's), ``ways`` (the ways in tried in order by :func:`first_way`), ``turn`` (the turning strokes),
``pick`` (:class:`SidePick`), ``place`` (:class:`SidePlace`).

Tuning: ``skills.side`` (:class:`housebench.skills.tuning.SideTuning`; the double-quoted names below are its
fields).
"""

from housebench.skills.side.opening import low_ceiling, side_pick
from housebench.skills.side.pick import SidePick
from housebench.skills.side.place import SidePlace

__all__ = ["SidePick", "SidePlace", "low_ceiling", "side_pick"]
