"""Behaviour cloning on an exported housebench dataset, read through LeRobot's own loader.

``python -m housebench_bc.train DATASET --item apple --out bc.pt [--steps 5000] [--device cuda] [--seed 0 1 2]``

Every frame becomes one example: the inputs of :mod:`housebench_bc.features` at that frame, the next ``CHUNK``
actions (LeRobot's ``delta_timestamps``, padded with the last action past an episode's end) relative to it, and
whether the demonstration ends within ``DONE_FRAMES`` frames. A tenth of the episodes (every tenth) is held out for
the validation loss. Writes the checkpoint and ``<out>.json``: losses, time, data and device.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from .features import CHUNK, JOINTS, encode, inputs
from .model import BCNet, save

DONE_FRAMES = 3  # the last frames of a demonstration, where the policy should say stop
VAL_EVERY = 10  # every tenth episode is held out
HIDDEN, LAYERS = 256, 3
LR, BATCH, WEIGHT_DECAY = 1e-3, 512, 1e-4
INPUT_NOISE = 0.1  # Gaussian noise on the normalised inputs while training: states a little off the demonstrations


def examples(root: Path, item: str) -> dict:
    """The dataset's frames as arrays: inputs, chunk targets, done labels, episode index; and its names."""
    from lerobot.datasets.lerobot_dataset import LeRobotDataset
    from lerobot.utils.collate import lerobot_collate_fn

    fps = json.loads((root / "meta/info.json").read_text())["fps"]  # the chunk's times need it before the load
    ds = LeRobotDataset(
        repo_id=f"housebench/{root.name}", root=root, delta_timestamps={"action": [i / fps for i in range(CHUNK)]}
    )
    names = {k: ds.features[k]["names"] for k in ("observation.state", "observation.environment_state", "action")}
    joints = list(names["action"][:JOINTS])
    lengths = {ep: ds.meta.episodes[ep]["length"] for ep in range(ds.num_episodes)}
    loader = torch.utils.data.DataLoader(ds, batch_size=1024, collate_fn=lerobot_collate_fn)
    started = time.perf_counter()
    xs, ys, dones, eps = [], [], [], []
    for batch in loader:
        named = {}
        for key in ("observation.state", "observation.environment_state"):
            values = batch[key].numpy().astype(np.float64)
            named.update({n: values[:, i] for i, n in enumerate(names[key])})
        ep, frame = batch["episode_index"].numpy(), batch["frame_index"].numpy()
        xs.append(inputs(named, joints, item))
        ys.append(encode(batch["action"].numpy().astype(np.float64), named, joints))
        dones.append(frame >= np.array([lengths[int(e)] for e in ep]) - DONE_FRAMES)
        eps.append(ep)
    return {
        "x": np.concatenate(xs),
        "y": np.concatenate(ys),
        "done": np.concatenate(dones).astype(np.float32),
        "episode": np.concatenate(eps),
        "joints": joints,
        "item": item,
        "episodes": ds.num_episodes,
        "load_s": round(time.perf_counter() - started, 2),
        "bytes": sum(p.stat().st_size for p in root.rglob("*") if p.is_file()),
        "fps": ds.fps,
    }


def train(data: dict, out: Path, steps: int, device: str, seed: int, noise: float = INPUT_NOISE) -> dict:
    """Fit one network to ``data`` (:func:`examples`) from ``seed``; write it to ``out``, its report beside it."""
    torch.manual_seed(seed)
    val = data["episode"] % VAL_EVERY == VAL_EVERY - 1
    t = {k: torch.from_numpy(data[k]).to(device) for k in ("x", "y", "done")}
    train_idx = torch.from_numpy(np.flatnonzero(~val)).to(device)
    val_idx = torch.from_numpy(np.flatnonzero(val)).to(device)
    net = BCNet(HIDDEN, LAYERS).to(device)
    fit = t["x"][train_idx], t["y"][train_idx]
    net.in_mean.copy_(fit[0].mean(0))
    net.in_std.copy_(fit[0].std(0).clamp_min(1e-3))
    flat = fit[1].reshape(-1, fit[1].shape[-1])
    net.out_mean.copy_(flat.mean(0))
    net.out_std.copy_(flat.std(0).clamp_min(1e-3))
    opt = torch.optim.AdamW(net.parameters(), lr=LR, weight_decay=WEIGHT_DECAY)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    gen = torch.Generator(device=device).manual_seed(seed)

    def loss_of(idx: torch.Tensor, noise: float = 0.0) -> tuple[torch.Tensor, torch.Tensor]:
        x = t["x"][idx]
        if noise:
            x = x + noise * net.in_std * torch.randn(x.shape, generator=gen, device=device)
        chunk, done = net(x)
        target = (t["y"][idx] - net.out_mean) / net.out_std
        bce = torch.nn.functional.binary_cross_entropy_with_logits(done, t["done"][idx])
        return torch.nn.functional.mse_loss(chunk, target), bce

    train_s0 = time.perf_counter()
    for _ in range(steps):
        pick = train_idx[torch.randint(len(train_idx), (BATCH,), generator=gen, device=device)]
        mse, bce = loss_of(pick, noise)
        opt.zero_grad()
        (mse + bce).backward()
        opt.step()
        sched.step()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    train_s = time.perf_counter() - train_s0
    net.eval()
    with torch.no_grad():
        losses = {
            "train_mse": float(loss_of(train_idx)[0]),
            "val_mse": float(loss_of(val_idx)[0]) if len(val_idx) else None,
            "val_done_bce": float(loss_of(val_idx)[1]) if len(val_idx) else None,
        }
    meta = {"item": data["item"], "joints": data["joints"], "fps": data["fps"]}
    save(net.cpu(), out, meta)
    report = {
        **losses,
        "episodes": data["episodes"],
        "frames": int(len(data["x"])),
        "val_episodes": int(len(np.unique(data["episode"][val]))),
        "steps": steps,
        "input_noise": noise,
        "batch": BATCH,
        "load_s": data["load_s"],
        "train_s": round(train_s, 2),
        "device": torch.cuda.get_device_name() if device.startswith("cuda") else device,
        "torch": torch.__version__,
        "dataset_bytes": data["bytes"],
        "seed": seed,
    }
    out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--item", required=True, help="the object whose pose the network sees")
    parser.add_argument("--out", type=Path, required=True, help="checkpoint; with several seeds, <out>-s<seed>.pt")
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--noise", type=float, default=INPUT_NOISE, help="input noise, in input standard deviations")
    parser.add_argument("--seed", type=int, nargs="+", default=[0], help="one network per seed, the data read once")
    args = parser.parse_args()
    data = examples(args.dataset, args.item)
    for seed in args.seed:
        out = args.out if len(args.seed) == 1 else args.out.with_name(f"{args.out.stem}-s{seed}{args.out.suffix}")
        print(json.dumps(train(data, out, args.steps, args.device, seed, args.noise)), flush=True)


if __name__ == "__main__":
    main()
