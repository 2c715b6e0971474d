//! Joint frames turned by `frame_axis`/`frame_angle`, read from whole specs: a turned joint is
//! the same joint with its axes written out in the parent's frame (its axis `R₀ a`, its child's
//! centre `R₀ c` and inertia `R₀ I R₀ᵀ`, all by hand), and a joint of any kind turned at the
//! ground is the unturned joint under gravity turned back, `R₀ᵀ g` (the potential
//! `m g·(R₀ x) = m (R₀ᵀ g)·x`, the kinetic energy unchanged).

use cas::Expr;

use crate::System;

fn resolved(source: &str) -> System {
    let spec = syntax::parse(source).expect("parses");
    match crate::resolve(&spec) {
        Ok(system) => system,
        Err(d) => panic!("does not resolve: {d:?}\n{source}"),
    }
}

/// The two specs' Lagrangians differ by zero (symbols are compared by name, so the two
/// systems' tables need not agree).
fn assert_same_lagrangian(turned: &str, written: &str) {
    let (a, b) = (resolved(turned), resolved(written));
    let difference: Expr = a.lagrangian.get().clone() - b.lagrangian.get().clone();
    assert!(
        difference.vanishes(),
        "{}: the Lagrangians differ by {difference}",
        a.name
    );
}

/// A pendulum whose joint frame is turned by `lam` about the x axis, turning about the turned z
/// axis, with its bob's centre and inertia in its own axes.
const TURNED_PENDULUM: &str = "system pendulum
parameters m, c1, c2, c3, I1, I2, I3, lam, g
gravity = (0, 0, -g)
body bob {
  mass = m
  center = (c1, c2, c3)
  inertia = (I1, I2, I3)
}
joint th revolute {
  parent = ground
  child = bob
  frame_axis = (1, 0, 0)
  frame_angle = lam
  axis = (0, 0, 1)
}
";

/// The same pendulum written out: `R_x(lam) ẑ = (0, −sin lam, cos lam)`, the centre
/// `R_x(lam) c` and the inertia `R_x(lam) diag(I1, I2, I3) R_x(lam)ᵀ` (entries in the order
/// `Ixx, Iyy, Izz, Ixy, Iyz, Ixz`).
const WRITTEN_PENDULUM: &str = "system pendulum
parameters m, c1, c2, c3, I1, I2, I3, lam, g
gravity = (0, 0, -g)
body bob {
  mass = m
  center = (c1, c2*cos(lam) - c3*sin(lam), c2*sin(lam) + c3*cos(lam))
  inertia = (I1, I2*cos(lam)^2 + I3*sin(lam)^2, I2*sin(lam)^2 + I3*cos(lam)^2, 0, (I2 - I3)*cos(lam)*sin(lam), 0)
}
joint th revolute {
  parent = ground
  child = bob
  axis = (0, -sin(lam), cos(lam))
}
";

#[test]
fn a_turned_pendulum_is_its_axis_written_out() {
    assert_same_lagrangian(TURNED_PENDULUM, WRITTEN_PENDULUM);
}

/// An arm turning about z carries at its end a slider whose joint frame is turned by `lam` about
/// the arm's y axis, the slider moving along the turned x axis.
const TURNED_SLIDER: &str = "system slider_arm
parameters m1, m2, l, J, c1, c3, I1, I2, I3, lam, g
gravity = (0, 0, -g)
body arm {
  mass = m1
  center = (l/2, 0, 0)
  inertia = (0, 0, J)
}
body slider {
  mass = m2
  center = (c1, 0, c3)
  inertia = (I1, I2, I3)
}
joint th revolute {
  parent = ground
  child = arm
  axis = (0, 0, 1)
}
joint s prismatic {
  parent = arm
  child = slider
  at = (l, 0, 0)
  frame_axis = (0, 1, 0)
  frame_angle = lam
  axis = (1, 0, 0)
}
";

/// The same arm written out: the slider's axis `R_y(lam) x̂ = (cos lam, 0, −sin lam)` in the
/// arm's axes, its centre `R_y(lam) (c1, 0, c3)` and its inertia `R_y(lam) diag(I1, I2, I3)
/// R_y(lam)ᵀ`, since its axes are now the arm's.
const WRITTEN_SLIDER: &str = "system slider_arm
parameters m1, m2, l, J, c1, c3, I1, I2, I3, lam, g
gravity = (0, 0, -g)
body arm {
  mass = m1
  center = (l/2, 0, 0)
  inertia = (0, 0, J)
}
body slider {
  mass = m2
  center = (c1*cos(lam) + c3*sin(lam), 0, c3*cos(lam) - c1*sin(lam))
  inertia = (I1*cos(lam)^2 + I3*sin(lam)^2, I2, I1*sin(lam)^2 + I3*cos(lam)^2, 0, 0, (I3 - I1)*cos(lam)*sin(lam))
}
joint th revolute {
  parent = ground
  child = arm
  axis = (0, 0, 1)
}
joint s prismatic {
  parent = arm
  child = slider
  at = (l, 0, 0)
  axis = (cos(lam), 0, -sin(lam))
}
";

/// The turn reaches a joint below a moving body: the slider's angular velocity is `R₀ᵀ ω_arm`
/// in its own axes, and its centre `at + R₀ (s x̂ + c)` moves with the arm.
#[test]
fn a_turned_slider_on_a_moving_arm_is_its_axis_written_out() {
    assert_same_lagrangian(TURNED_SLIDER, WRITTEN_SLIDER);
}

/// A one-body spec hanging from the ground by a joint `name` of `kind` with `lines`, under
/// `gravity`, its joint frame turned by `lam` about the x axis when `turned`.
fn hanging(kind: &str, name: &str, lines: &str, gravity: &str, turned: bool) -> String {
    let frame = if turned {
        "frame_axis = (1, 0, 0)\n  frame_angle = lam\n  "
    } else {
        ""
    };
    format!(
        "system hanging
parameters m, c1, c2, c3, I1, I2, I3, lam, g
gravity = {gravity}
body b {{
  mass = m
  center = (c1, c2, c3)
  inertia = (I1, I2, I3)
}}
joint {name} {kind} {{
  parent = ground
  child = b
  {frame}{lines}
}}
"
    )
}

/// Every joint kind turned at the ground by `R₀ = R_x(lam)` is the same joint, unturned, under
/// the gravity `R₀ᵀ (0, 0, −g) = (0, −g sin lam, −g cos lam)`: the joint frame at the ground's
/// origin only rotates the whole motion, which leaves speeds alone and turns the height.
#[test]
fn every_joint_kind_turned_at_the_ground_is_gravity_turned_back() {
    let kinds = [
        ("revolute", "th", "axis = (0, 1, 0)"),
        ("prismatic", "s", "axis = (0, 1, 0)"),
        ("planar", "base", "coordinates = (x, y, phi)"),
        (
            "spherical",
            "base",
            "quaternion = (q0, q1, q2, q3)\n  velocities = (w1, w2, w3)",
        ),
        (
            "free",
            "base",
            "position = (p1, p2, p3)\n  quaternion = (q0, q1, q2, q3)\n  \
             velocities = (v1, v2, v3, w1, w2, w3)",
        ),
    ];
    for (kind, name, lines) in kinds {
        let turned = hanging(kind, name, lines, "(0, 0, -g)", true);
        let written = hanging(kind, name, lines, "(0, -g*sin(lam), -g*cos(lam))", false);
        assert_same_lagrangian(&turned, &written);
    }
}

/// The same turn `R_x(lam)` given as a matrix (row-major, written out by hand) is the turn by an
/// angle about the x axis.
#[test]
fn a_frame_matrix_is_the_turn_it_writes_out() {
    let by_matrix = TURNED_PENDULUM.replace(
        "frame_axis = (1, 0, 0)\n  frame_angle = lam",
        "frame_matrix = (1, 0, 0, 0, cos(lam), -sin(lam), 0, sin(lam), cos(lam))",
    );
    assert_ne!(by_matrix, TURNED_PENDULUM, "the frame lines were replaced");
    assert_same_lagrangian(&by_matrix, WRITTEN_PENDULUM);
}

/// A quarter turn about x three ways: the quaternion `(1, 1, 0, 0)` (not unit: it is
/// normalised), the matrix `R_x(π/2) = ((1, 0, 0), (0, 0, −1), (0, 1, 0))`, and the axes written
/// out (`R ẑ = −ŷ`, the centre `(c1, −c3, c2)`, the inertia `(I1, I3, I2)`).
#[test]
fn a_frame_quaternion_is_its_rotation_normalised() {
    let quarter = |frame: &str| {
        TURNED_PENDULUM
            .replace("frame_axis = (1, 0, 0)\n  frame_angle = lam", frame)
            .replace(
                "parameters m, c1, c2, c3, I1, I2, I3, lam, g",
                "parameters m, c1, c2, c3, I1, I2, I3, g",
            )
    };
    let by_quaternion = quarter("frame_quaternion = (1, 1, 0, 0)");
    let by_matrix = quarter("frame_matrix = (1, 0, 0, 0, 0, -1, 0, 1, 0)");
    let written = "system pendulum
parameters m, c1, c2, c3, I1, I2, I3, g
gravity = (0, 0, -g)
body bob {
  mass = m
  center = (c1, -c3, c2)
  inertia = (I1, I3, I2)
}
joint th revolute {
  parent = ground
  child = bob
  axis = (0, -1, 0)
}
";
    assert_same_lagrangian(&by_quaternion, written);
    assert_same_lagrangian(&by_matrix, written);
}
