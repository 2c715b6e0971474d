//! [`Method::Map`]: a fixed-step run of the system's own discrete map, sampled as RK4 is.

use sim::{Method, Settings, System};

/// The exact flow of `x'' = −x` over each step (a rotation by `h`) as the map: after 100 steps of
/// 0.1 the state is `(cos 10, −sin 10)` to round-off, the samples are every `dt_out`, and the
/// last step is shortened to land on `T`.
#[test]
fn a_map_of_the_exact_flow_reaches_the_exact_state() {
    let mut system = System::new(vec!["x".into(), "v".into()], |_, _, _| {
        Err("a map run never calls the right-hand side".into())
    })
    .with_map(|_, h, x: &[f64], next: &mut [f64]| {
        let (c, s) = (h.cos(), h.sin());
        next[0] = c * x[0] + s * x[1];
        next[1] = -s * x[0] + c * x[1];
        Ok(())
    });
    let settings = Settings::new(10.05)
        .with_dt_out(0.5)
        .with_method(Method::Map { h: 0.1 });
    let run = system.integrate(&[1.0, 0.0], &settings).unwrap();
    let last = run.states.last().unwrap();
    assert!((last[0] - 10.05f64.cos()).abs() < 1e-13, "{last:?}");
    assert!((last[1] + 10.05f64.sin()).abs() < 1e-13, "{last:?}");
    assert_eq!(run.times.len(), 22, "0, 0.5, …, 10, and 10.05");
    assert!((run.times[1] - 0.5).abs() < 1e-12);
}

/// Without a map the method refuses to run, and a map's error stops the run with its message.
#[test]
fn a_map_run_needs_a_map_and_reports_its_failures() {
    let settings = Settings::new(1.0).with_method(Method::Map { h: 0.1 });
    let mut bare = System::new(vec!["x".into()], |_, _, xdot: &mut [f64]| {
        xdot[0] = 0.0;
        Ok(())
    });
    let error = bare.integrate(&[1.0], &settings).unwrap_err().to_string();
    assert!(error.contains("discrete map"), "{error}");
    let mut failing = System::new(vec!["x".into()], |_, _, _| Ok(())).with_map(|t, _, _, _| {
        if t > 0.45 {
            Err("no convergence".into())
        } else {
            Ok(())
        }
    });
    let error = failing
        .integrate(&[1.0], &settings)
        .unwrap_err()
        .to_string();
    assert!(error.contains("no convergence"), "{error}");
}
