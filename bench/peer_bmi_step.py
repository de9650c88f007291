#!/usr/bin/env python3
"""The joint critic's step and held-out reading as bmi's protocol runs them in PyTorch, timed alone: the reference's
own Critic, bound and Adam (../shared/bench/peer_bmi.py, imported from the path given, not copied), on random rows
of bmi's recipe's shapes (batch 256 of x and y of 5 dimensions; a held-out half of 2,500 rows read whole). One
intra-op thread, as the peer sets itself. bench_joint_step runs it in alternating rounds with milab's step.

Usage: peer_bmi_step.py PEER_BMI_PY [--steps N] [--reads N]
Prints: step_ms=... read_ms=...
"""
import argparse, importlib.util, time
import torch

a = argparse.ArgumentParser()
a.add_argument("peer")
a.add_argument("--steps", type=int, default=200)
a.add_argument("--reads", type=int, default=5)
a = a.parse_args()
spec = importlib.util.spec_from_file_location("peer_bmi", a.peer)
peer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(peer)  # sets one thread

torch.manual_seed(1)
x = torch.randn(2500, 5); y = x + torch.randn(2500, 5)
critic = peer.Critic(10); opt = torch.optim.Adam(critic.parameters(), lr=1e-3)


def step():
    b = torch.randperm(2500)[:256]
    loss = -peer.infonce(critic.pairs(x[b], y[b]))
    opt.zero_grad(); loss.backward(); opt.step()


for _ in range(max(3, a.steps // 5)):  # warm-up
    step()
t0 = time.perf_counter()
for _ in range(a.steps):
    step()
step_ms = (time.perf_counter() - t0) * 1e3 / a.steps
with torch.no_grad():
    peer.infonce(critic.pairs(x, y))
    t0 = time.perf_counter()
    for _ in range(a.reads):
        peer.infonce(critic.pairs(x, y))
    read_ms = (time.perf_counter() - t0) * 1e3 / a.reads
print(f"step_ms={step_ms:.3f} read_ms={read_ms:.2f}")
