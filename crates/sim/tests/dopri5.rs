//! The adaptive integrator against analytic solutions.

use sim::{Dopri5Options, Error, Hook, Method, Settings, System};

fn names(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

/// `x'' = −x` as `(x, v)`, solution `x = cos t`, `v = −sin t` from `(1, 0)`.
fn oscillator() -> System<'static> {
    System::new(names(&["x", "v"]), |_, x, xdot| {
        xdot[0] = x[1];
        xdot[1] = -x[0];
        Ok(())
    })
}

/// The largest deviation from `(cos t, −sin t)` over all samples.
fn oscillator_error(rtol: f64, atol: f64) -> f64 {
    let settings =
        Settings::new(10.0).with_method(Method::Dopri5(Dopri5Options::with_tolerances(rtol, atol)));
    let trajectory = oscillator().integrate(&[1.0, 0.0], &settings).unwrap();
    trajectory
        .times
        .iter()
        .zip(&trajectory.states)
        .map(|(t, x)| (x[0] - t.cos()).abs().max((x[1] + t.sin()).abs()))
        .fold(0.0, f64::max)
}

#[test]
fn oscillator_matches_cos_and_sin_at_default_tolerances() {
    let trajectory = oscillator()
        .integrate(&[1.0, 0.0], &Settings::new(10.0))
        .unwrap();
    let last = trajectory.states.last().unwrap();
    assert_eq!(*trajectory.times.last().unwrap(), 10.0);
    assert!((last[0] - 10f64.cos()).abs() < 1e-8, "x(10) = {}", last[0]);
    assert!((last[1] + 10f64.sin()).abs() < 1e-8, "v(10) = {}", last[1]);
    // Dense-output samples between steps are as accurate as the steps.
    let worst = oscillator_error(sim::DEFAULT_RTOL, sim::DEFAULT_ATOL);
    assert!(worst < 1e-8, "worst sample error {worst:e}");
    let stats = trajectory.stats;
    assert!(
        stats.accepted_steps > 10 && stats.accepted_steps < 1000,
        "{stats:?}"
    );
    // FSAL: six new evaluations per attempt, plus the first derivative and the initial-step probe.
    let attempts = stats.accepted_steps + stats.rejected_steps;
    assert_eq!(stats.rhs_evaluations, 6 * attempts + 2);
}

#[test]
fn error_shrinks_with_the_tolerance() {
    let loose = oscillator_error(1e-6, 1e-9);
    let default = oscillator_error(1e-9, 1e-12);
    let tight = oscillator_error(1e-12, 1e-15);
    assert!(loose > 10.0 * default, "{loose:e} vs {default:e}");
    assert!(default > 10.0 * tight, "{default:e} vs {tight:e}");
    assert!(tight < 1e-10, "{tight:e}");
}

#[test]
fn energy_drift_is_tiny() {
    let mut system = oscillator().with_observer(names(&["E"]), |_, x| {
        Ok(vec![0.5 * (x[0] * x[0] + x[1] * x[1])])
    });
    let trajectory = system.integrate(&[1.0, 0.0], &Settings::new(10.0)).unwrap();
    assert_eq!(trajectory.extra_names, ["E"]);
    let drift = trajectory
        .extras
        .iter()
        .map(|e| (e[0] - 0.5).abs())
        .fold(0.0, f64::max);
    // Dissipation of about rtol per unit time: 1.2e-9 over ten time units here.
    assert!(drift < 5e-9, "energy drift {drift:e}");
}

#[test]
fn samples_lie_exactly_on_the_uniform_grid() {
    let settings = Settings::new(10.0).with_dt_out(0.1);
    let trajectory = oscillator().integrate(&[1.0, 0.0], &settings).unwrap();
    assert_eq!(trajectory.times.len(), 101);
    for (k, t) in trajectory.times.iter().enumerate().take(100) {
        assert_eq!(t.to_bits(), (k as f64 * 0.1).to_bits(), "sample {k}");
    }
    assert_eq!(trajectory.times[100], 10.0);
    assert_eq!(trajectory.states.len(), 101);
    // Sample values do not depend on the step sizes taken.
    let x = &trajectory.states[37];
    assert!((x[0] - 3.7f64.cos()).abs() < 1e-8);
}

#[test]
fn default_grid_has_a_thousand_intervals_and_a_short_last_one_ends_at_t_end() {
    let trajectory = oscillator()
        .integrate(&[1.0, 0.0], &Settings::new(3.0))
        .unwrap();
    assert_eq!(trajectory.times.len(), 1001);
    assert_eq!(trajectory.times[0], 0.0);
    assert_eq!(*trajectory.times.last().unwrap(), 3.0);
    let settings = Settings::new(1.05).with_dt_out(0.1);
    let trajectory = oscillator().integrate(&[1.0, 0.0], &settings).unwrap();
    let times = &trajectory.times;
    assert_eq!(times.len(), 12);
    assert_eq!(times[10].to_bits(), (10.0f64 * 0.1).to_bits());
    assert_eq!(times[11], 1.05);
    assert!(times.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn blow_up_ends_in_a_descriptive_error() {
    // x' = x², x(0) = 1: x = 1/(1 − t) blows up at t = 1.
    let mut system = System::new(names(&["x"]), |_, x, xdot| {
        xdot[0] = x[0] * x[0];
        Ok(())
    });
    let error = system.integrate(&[1.0], &Settings::new(2.0)).unwrap_err();
    let t = error.time().unwrap();
    assert!((t - 1.0).abs() < 1e-3, "stopped at {t}: {error}");
    let message = error.to_string();
    assert!(
        matches!(
            error,
            Error::StepTooSmall { .. } | Error::TooManySteps { .. }
        ),
        "{message}"
    );
    assert!(message.contains("t = "), "{message}");
}

#[test]
fn step_budget_ends_in_an_error() {
    let options = Dopri5Options {
        max_steps: 5,
        ..Dopri5Options::default()
    };
    let settings = Settings::new(100.0).with_method(Method::Dopri5(options));
    let error = oscillator().integrate(&[1.0, 0.0], &settings).unwrap_err();
    assert!(
        matches!(error, Error::TooManySteps { max_steps: 5, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("5 step attempts"), "{error}");
}

#[test]
fn nan_from_the_rhs_rejects_steps_then_errors() {
    // The derivative is NaN for x > 2, which the solution x = e^t reaches at t = ln 2.
    let mut system = System::new(names(&["x"]), |_, x, xdot| {
        xdot[0] = if x[0] > 2.0 { f64::NAN } else { x[0] };
        Ok(())
    });
    let error = system.integrate(&[1.0], &Settings::new(1.0)).unwrap_err();
    assert!(
        matches!(
            error,
            Error::StepTooSmall {
                non_finite: true,
                ..
            }
        ),
        "{error}"
    );
    let t = error.time().unwrap();
    assert!((t - 2f64.ln()).abs() < 1e-6, "{t}");
    assert!(error.to_string().contains("NaN"), "{error}");
}

#[test]
fn rhs_error_propagates_with_its_time() {
    let mut system = System::new(names(&["x"]), |t, _, xdot| {
        if t > 0.5 {
            return Err("denominator m*r^2 vanished".to_string());
        }
        xdot[0] = 1.0;
        Ok(())
    });
    let error = system.integrate(&[0.0], &Settings::new(1.0)).unwrap_err();
    match &error {
        Error::Hook { hook, t, message } => {
            assert_eq!(*hook, Hook::Rhs);
            assert!(*t > 0.5 && *t <= 1.0, "{t}");
            assert_eq!(message, "denominator m*r^2 vanished");
        }
        other => panic!("unexpected error {other:?}"),
    }
    let text = error.to_string();
    assert!(text.starts_with("right-hand side failed at t = "), "{text}");
    assert!(text.ends_with(": denominator m*r^2 vanished"), "{text}");
}

/// A particle on the unit circle in Cartesian coordinates `(x, y, u, w)`, with the centripetal
/// acceleration `−|v|²/|r|² · r` and no other force: uniform motion at speed `|v0|`.
fn circle() -> System<'static> {
    System::new(names(&["x", "y", "u", "w"]), |_, s, d| {
        let lambda = (s[2] * s[2] + s[3] * s[3]) / (s[0] * s[0] + s[1] * s[1]);
        d[0] = s[2];
        d[1] = s[3];
        d[2] = -lambda * s[0];
        d[3] = -lambda * s[1];
        Ok(())
    })
    .with_observer(names(&["residual"]), |_, s| {
        Ok(vec![s[0] * s[0] + s[1] * s[1] - 1.0])
    })
}

/// Renormalises the position and removes the radial velocity.
fn onto_circle(_: f64, s: &mut [f64]) -> Result<(), String> {
    let r = s[0].hypot(s[1]);
    if r == 0.0 {
        return Err("the particle is at the centre".into());
    }
    s[0] /= r;
    s[1] /= r;
    let radial = s[2] * s[0] + s[3] * s[1];
    s[2] -= radial * s[0];
    s[3] -= radial * s[1];
    Ok(())
}

#[test]
fn projection_keeps_the_constraint_residual_at_rounding_level() {
    let settings = Settings::new(20.0).with_dt_out(0.01);
    let x0 = [1.0, 0.0, 0.0, 2.0];
    let projected = circle()
        .with_projection(onto_circle)
        .integrate(&x0, &settings)
        .unwrap();
    // Most samples are interpolated inside steps, then projected.
    assert!(projected.stats.accepted_steps < projected.times.len() / 2);
    let worst = |t: &sim::Trajectory| t.extras.iter().map(|e| e[0].abs()).fold(0.0, f64::max);
    assert!(worst(&projected) < 1e-14, "{:e}", worst(&projected));
    for (t, s) in projected.times.iter().zip(&projected.states) {
        // Uniform circular motion at angular speed 2.
        assert!((s[0] - (2.0 * t).cos()).abs() < 1e-6, "x({t}) = {}", s[0]);
        assert!((s[1] - (2.0 * t).sin()).abs() < 1e-6, "y({t}) = {}", s[1]);
    }
    // Without projection the residual drifts well above rounding level.
    let free = circle().integrate(&x0, &settings).unwrap();
    assert!(worst(&free) > 100.0 * worst(&projected).max(1e-16));
}

#[test]
fn projection_error_propagates() {
    let mut calls = 0;
    let mut system = circle().with_projection(move |t, s| {
        calls += 1;
        if calls > 3 {
            return Err(format!("Newton iteration diverged at t = {t}"));
        }
        onto_circle(t, s)
    });
    let error = system
        .integrate(&[1.0, 0.0, 0.0, 1.0], &Settings::new(1.0))
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Hook {
                hook: Hook::Projection,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().starts_with("projection failed at t = "));
}

#[test]
fn observer_errors_propagate() {
    let mut system = oscillator().with_observer(names(&["E", "L"]), |_, _| Ok(vec![1.0]));
    let error = system
        .integrate(&[1.0, 0.0], &Settings::new(1.0))
        .unwrap_err();
    assert!(
        error.to_string().contains("returned 1 values for 2 names"),
        "{error}"
    );
    let mut system = oscillator().with_observer(names(&["E"]), |t, _| {
        if t >= 0.25 {
            Err("multiplier undefined".to_string())
        } else {
            Ok(vec![0.0])
        }
    });
    let settings = Settings::new(1.0).with_dt_out(0.125);
    let error = system.integrate(&[1.0, 0.0], &settings).unwrap_err();
    assert_eq!(
        error.to_string(),
        "observer failed at t = 0.25: multiplier undefined"
    );
}

#[test]
fn progress_bar_positions_are_fractions_of_t_end() {
    let progress = sim::Progress::hidden(4.0);
    assert!(!progress.is_visible());
    assert_eq!(progress.position(0.0), 0);
    assert_eq!(progress.position(1.0), 250);
    assert_eq!(progress.position(4.0), 1000);
    assert_eq!(progress.position(5.0), 1000);
    assert_eq!(progress.position(f64::NAN), 0);
    let mut system = oscillator().with_progress(|t| progress.update(t));
    system.integrate(&[1.0, 0.0], &Settings::new(4.0)).unwrap();
    progress.finish();
}

#[test]
fn progress_reports_increasing_times_up_to_t_end() {
    let mut seen = Vec::new();
    {
        let mut system = oscillator().with_progress(|t| seen.push(t));
        system.integrate(&[1.0, 0.0], &Settings::new(5.0)).unwrap();
    }
    assert!(!seen.is_empty());
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*seen.last().unwrap(), 5.0);
}

#[test]
fn invalid_inputs_are_rejected_with_a_reason() {
    let bad = |x0: &[f64], settings: Settings| {
        oscillator()
            .integrate(x0, &settings)
            .unwrap_err()
            .to_string()
    };
    assert!(bad(&[1.0], Settings::new(1.0)).contains("2 state names"));
    assert!(bad(&[f64::NAN, 0.0], Settings::new(1.0)).contains("initial value of x"));
    assert!(bad(&[1.0, 0.0], Settings::new(0.0)).contains("final time"));
    assert!(bad(&[1.0, 0.0], Settings::new(1.0).with_dt_out(-1.0)).contains("output interval"));
    let zero = Method::Dopri5(Dopri5Options::with_tolerances(0.0, 0.0));
    assert!(bad(&[1.0, 0.0], Settings::new(1.0).with_method(zero)).contains("tolerances"));
    let mut clash = oscillator().with_observer(names(&["x"]), |_, _| Ok(vec![0.0]));
    let error = clash
        .integrate(&[1.0, 0.0], &Settings::new(1.0))
        .unwrap_err();
    assert!(error.to_string().contains("duplicate column name `x`"));
}

#[test]
fn same_inputs_give_identical_trajectories() {
    let a = oscillator()
        .integrate(&[1.0, 0.0], &Settings::new(7.0))
        .unwrap();
    let b = oscillator()
        .integrate(&[1.0, 0.0], &Settings::new(7.0))
        .unwrap();
    assert_eq!(a, b);
}
