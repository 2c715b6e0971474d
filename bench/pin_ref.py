"""Pinocchio's articulated-body algorithm on bench/models.py's pendulum_cart_bodies(n), timed
per call from Python (run in the bench's virtual environment, one fresh process per run).

    python pin_ref.py N SAMPLES.json OUT.json

SAMPLES.json holds states x, parameters p and inputs u in dalembert's argument order
(x = (x, q1..qn, x', q1'..qn'), p = (g, m0..mn, l1..ln), u = (F)). The model is built with
the parameters of the first sample. OUT.json gets the accelerations at every sample state (for
the driver to compare with the emitted code), the time per `pinocchio.aba` call, and the time
per call of a Python function that does nothing with the same arguments (the call overhead
that the first includes).
"""
import json
import sys
import time

import numpy as np
import pinocchio as pin


def model_of(n, p):
    g, m, l = p[0], p[1:n + 2], p[n + 2:2 * n + 2]
    model = pin.Model()
    model.gravity = pin.Motion(np.array([0.0, -g, 0.0]), np.zeros(3))
    jid = model.addJoint(0, pin.JointModelPX(), pin.SE3.Identity(), "x")
    model.appendBodyToJoint(jid, pin.Inertia(m[0], np.zeros(3), np.zeros((3, 3))), pin.SE3.Identity())
    for i in range(1, n + 1):
        at = np.array([l[i - 2] if i > 1 else 0.0, 0.0, 0.0])
        jid = model.addJoint(jid, pin.JointModelRZ(), pin.SE3(np.eye(3), at), f"q{i}")
        lever = np.array([l[i - 1], 0.0, 0.0])
        model.appendBodyToJoint(jid, pin.Inertia(m[i], lever, np.zeros((3, 3))), pin.SE3.Identity())
    return model


def main():
    n = int(sys.argv[1])
    with open(sys.argv[2]) as f:
        samples = json.load(f)
    model = model_of(n, samples["p"][0])
    data = model.createData()
    nq = n + 1
    accelerations = []
    states = []
    for x, u in zip(samples["x"], samples["u"]):
        q, v = np.array(x[:nq]), np.array(x[nq:])
        tau = np.zeros(nq)
        tau[0] = u[0]
        states.append((q, v, tau))
        accelerations.append(list(pin.aba(model, data, q, v, tau)))
    reps = max(2000, 200000 // nq)
    k = len(states)
    start = time.perf_counter()
    for r in range(reps):
        q, v, tau = states[r % k]
        pin.aba(model, data, q, v, tau)
    aba = (time.perf_counter() - start) / reps

    def nothing(model, data, q, v, tau):
        return None

    start = time.perf_counter()
    for r in range(reps):
        q, v, tau = states[r % k]
        nothing(model, data, q, v, tau)
    overhead = (time.perf_counter() - start) / reps
    with open(sys.argv[3], "w") as f:
        json.dump({"accelerations": accelerations, "aba_ns": 1e9 * aba,
                   "python_call_ns": 1e9 * overhead, "pinocchio": pin.__version__}, f)


if __name__ == "__main__":
    main()
