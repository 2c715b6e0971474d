//! The fixed-step RK4 integrator against the harmonic oscillator.

use sim::{Error, Method, Settings, System};

fn oscillator() -> System<'static> {
    System::new(vec!["x".into(), "v".into()], |_, x, xdot| {
        xdot[0] = x[1];
        xdot[1] = -x[0];
        Ok(())
    })
}

/// The error at `T = 10` of RK4 with step `h`, against `(cos 10, −sin 10)`.
fn error_at_10(h: f64) -> f64 {
    let settings = Settings::new(10.0).with_method(Method::Rk4 { h });
    let trajectory = oscillator().integrate(&[1.0, 0.0], &settings).unwrap();
    assert_eq!(*trajectory.times.last().unwrap(), 10.0);
    let x = trajectory.states.last().unwrap();
    (x[0] - 10f64.cos()).hypot(x[1] + 10f64.sin())
}

#[test]
fn global_error_scales_as_h_to_the_fourth() {
    let errors: Vec<f64> = [0.2, 0.1, 0.05, 0.025]
        .iter()
        .map(|h| error_at_10(*h))
        .collect();
    for pair in errors.windows(2) {
        let ratio = pair[0] / pair[1];
        assert!(
            (12.0..=20.0).contains(&ratio),
            "ratio {ratio} from {errors:?}"
        );
    }
}

#[test]
fn samples_every_kth_step_and_at_t_end() {
    let settings = Settings::new(1.0)
        .with_dt_out(0.1)
        .with_method(Method::Rk4 { h: 0.01 });
    let trajectory = oscillator().integrate(&[1.0, 0.0], &settings).unwrap();
    assert_eq!(trajectory.times.len(), 11);
    for (k, t) in trajectory.times.iter().enumerate().take(10) {
        assert_eq!(t.to_bits(), ((10 * k) as f64 * 0.01).to_bits());
    }
    assert_eq!(trajectory.times[10], 1.0);
    let stats = trajectory.stats;
    assert_eq!(stats.accepted_steps, 100);
    assert_eq!(stats.rejected_steps, 0);
    assert_eq!(stats.rhs_evaluations, 400);
}

#[test]
fn a_short_last_step_lands_on_t_end() {
    let settings = Settings::new(1.05).with_method(Method::Rk4 { h: 0.1 });
    let trajectory = oscillator().integrate(&[1.0, 0.0], &settings).unwrap();
    assert_eq!(trajectory.times.len(), 12);
    assert_eq!(*trajectory.times.last().unwrap(), 1.05);
    let x = trajectory.states.last().unwrap();
    assert!((x[0] - 1.05f64.cos()).abs() < 1e-5);
}

#[test]
fn output_interval_must_be_a_multiple_of_the_step() {
    let settings = Settings::new(1.0)
        .with_dt_out(0.15)
        .with_method(Method::Rk4 { h: 0.1 });
    let error = oscillator().integrate(&[1.0, 0.0], &settings).unwrap_err();
    assert!(
        error.to_string().contains("multiple of the step"),
        "{error}"
    );
}

#[test]
fn a_diverging_state_is_an_error() {
    let mut system = System::new(vec!["x".into()], |_, x, xdot| {
        xdot[0] = x[0] * x[0];
        Ok(())
    });
    let settings = Settings::new(2.0).with_method(Method::Rk4 { h: 0.01 });
    let error = system.integrate(&[1.0], &settings).unwrap_err();
    assert!(matches!(error, Error::NonFinite { .. }), "{error}");
    assert!(error.time().unwrap() > 0.9);
}
