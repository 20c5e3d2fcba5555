"""The network and its checkpoint: what training writes and the policy reads."""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from .features import ACTION_DIMS, CHUNK, INPUT_DIMS


class BCNet(nn.Module):
    """An MLP from normalised inputs to a normalised action chunk and the logit that the demonstration ends here."""

    def __init__(self, hidden: int = 256, layers: int = 3) -> None:
        super().__init__()
        dims = [INPUT_DIMS, *([hidden] * layers)]
        body = []
        for a, b in zip(dims[:-1], dims[1:]):
            body += [nn.Linear(a, b), nn.LayerNorm(b), nn.GELU()]
        self.body = nn.Sequential(*body)
        self.head = nn.Linear(hidden, CHUNK * ACTION_DIMS + 1)
        for name in ("in_mean", "in_std", "out_mean", "out_std"):
            dims = INPUT_DIMS if name.startswith("in") else ACTION_DIMS
            self.register_buffer(name, torch.zeros(dims) if "mean" in name else torch.ones(dims))
        self.hidden, self.layers = hidden, layers

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Normalised chunk (B, CHUNK, ACTION_DIMS) and the done logit (B,) of raw inputs (B, INPUT_DIMS)."""
        out = self.head(self.body((x - self.in_mean) / self.in_std))
        return out[:, :-1].reshape(-1, CHUNK, ACTION_DIMS), out[:, -1]

    def act(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The raw (de-normalised) chunk and the probability that the demonstration ends here."""
        chunk, done = self(x)
        return chunk * self.out_std + self.out_mean, torch.sigmoid(done)


def save(net: BCNet, path: Path, meta: dict) -> None:
    torch.save({"state": net.state_dict(), "hidden": net.hidden, "layers": net.layers, "meta": meta}, path)


def load(path: Path, device: str = "cpu") -> tuple[BCNet, dict]:
    blob = torch.load(path, map_location=device, weights_only=True)
    net = BCNet(blob["hidden"], blob["layers"]).to(device)
    net.load_state_dict(blob["state"])
    return net.eval(), blob["meta"]
