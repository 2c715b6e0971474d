//! CSV and SVG output.

use quick_xml::events::Event;
use quick_xml::Reader;
use sim::{plot_svg, write_csv, Panel, Scale, Settings, Stats, System, Trajectory};

/// A trajectory with awkward values: tiny, huge, negative zero, subnormal, infinities.
fn awkward() -> Trajectory {
    let times = vec![0.0, 0.1, 0.2, 0.30000000000000004];
    let states = vec![
        vec![1.0, -0.0],
        vec![1e-300, 5e-324],
        vec![-1.7976931348623157e308, 0.1 + 0.2],
        vec![f64::INFINITY, f64::NEG_INFINITY],
    ];
    let extras = vec![
        vec![1.0 / 3.0],
        vec![-2.5e-15],
        vec![6.02214076e23],
        vec![0.0],
    ];
    Trajectory {
        state_names: vec!["q".into(), "q, dot".into()],
        extra_names: vec!["E \"total\"".into()],
        times,
        states,
        extras,
        stats: Stats::default(),
    }
}

fn csv_text(trajectory: &Trajectory) -> String {
    let mut bytes = Vec::new();
    write_csv(trajectory, &mut bytes).unwrap();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn csv_header_names_and_quotes_columns() {
    let text = csv_text(&awkward());
    let header = text.lines().next().unwrap();
    assert_eq!(header, r#"t,q,"q, dot","E ""total""""#);
    assert_eq!(text.lines().count(), 5);
    assert!(text.ends_with('\n'));
}

#[test]
fn csv_numbers_round_trip_bit_for_bit() {
    let trajectory = awkward();
    let text = csv_text(&trajectory);
    for (k, line) in text.lines().skip(1).enumerate() {
        // The header is the only line with quoted fields.
        let parsed: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
        let expected: Vec<f64> = std::iter::once(trajectory.times[k])
            .chain(trajectory.states[k].iter().copied())
            .chain(trajectory.extras[k].iter().copied())
            .collect();
        assert_eq!(parsed.len(), expected.len());
        for (p, e) in parsed.iter().zip(&expected) {
            assert_eq!(p.to_bits(), e.to_bits(), "{p} vs {e} in line {line}");
        }
    }
    assert!(text.contains("\n1e-1,"), "{text}");
    assert!(text.contains(",-0e0"), "{text}");
}

#[test]
fn csv_of_an_integration_is_deterministic() {
    let run = || {
        let mut system = System::new(vec!["x".into(), "v".into()], |_, x, d| {
            d[0] = x[1];
            d[1] = -x[0];
            Ok(())
        });
        let trajectory = system.integrate(&[1.0, 0.0], &Settings::new(2.0)).unwrap();
        csv_text(&trajectory)
    };
    assert_eq!(run(), run());
}

/// Parses `svg` as XML, failing on any syntax error; returns the element names in order.
fn elements(svg: &str) -> Vec<String> {
    let mut reader = Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut names = Vec::new();
    let mut depth = 0i32;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                depth += 1;
                names.push(e.name().0.to_string());
            }
            Ok(Event::Empty(e)) => names.push(e.name().0.to_string()),
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(error) => panic!("malformed SVG at {}: {error}", reader.buffer_position()),
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    names
}

/// An oscillator run with energy and a residual-like column.
fn oscillator_trajectory() -> Trajectory {
    let mut system = System::new(vec!["x".into(), "v".into()], |_, x, d| {
        d[0] = x[1];
        d[1] = -x[0];
        Ok(())
    })
    .with_observer(vec!["E".into(), "r".into()], |_, x| {
        let energy = 0.5 * (x[0] * x[0] + x[1] * x[1]);
        Ok(vec![energy, energy - 0.5])
    });
    system.integrate(&[1.0, 0.0], &Settings::new(10.0)).unwrap()
}

fn two_panels(trajectory: &Trajectory) -> Vec<Panel> {
    vec![
        Panel::new("states", "value")
            .with_columns(trajectory, &["x", "v"])
            .unwrap(),
        Panel::new("energy and constraint residuals", "E, |r|")
            .with_columns(trajectory, &["E", "r"])
            .unwrap()
            .with_scale(Scale::Log { floor: 1e-18 }),
    ]
}

#[test]
fn svg_is_deterministic_and_well_formed() {
    let first = plot_svg(
        &oscillator_trajectory(),
        &two_panels(&oscillator_trajectory()),
    );
    let second = plot_svg(
        &oscillator_trajectory(),
        &two_panels(&oscillator_trajectory()),
    );
    assert_eq!(first, second);
    let names = elements(&first);
    assert_eq!(names[0], "svg");
    assert_eq!(names.iter().filter(|n| *n == "polyline").count(), 4);
    assert!(first.contains(">states</text>"));
    assert!(first.contains(">energy and constraint residuals</text>"));
    assert!(first.contains(">time t</text>"));
    // Legend entries, distinct colours, decade ticks on the log panel.
    for label in [">x</text>", ">v</text>", ">E</text>", ">r</text>"] {
        assert!(first.contains(label), "missing legend {label}");
    }
    assert!(first.contains("#1f77b4") && first.contains("#ff7f0e"));
    assert!(first.contains(">1e-15</text>") && first.contains(">1e-10</text>"));
}

#[test]
fn svg_survives_nan_infinities_flat_and_empty_series() {
    let trajectory = oscillator_trajectory();
    let n = trajectory.times.len();
    let mut broken = vec![1.0; n];
    broken[10] = f64::NAN;
    broken[20] = f64::INFINITY;
    broken[21] = f64::NEG_INFINITY;
    // A conserved energy with rounding noise.
    let energy: Vec<f64> = (0..n).map(|k| 0.5 + (k % 3) as f64 * 1e-16).collect();
    let panels = vec![
        Panel::new("flat", "E").with_series("E", energy),
        Panel::new("odd & <names> \"quoted\"", "E")
            .with_series("zeros", vec![0.0; n])
            .with_series("broken", broken.clone()),
        Panel::new("all not-a-number", "nothing").with_series("nan", vec![f64::NAN; n]),
        Panel::new("empty", "none"),
        Panel::new("log", "|r|")
            .with_series("zeros", vec![0.0; n])
            .with_series("broken", broken)
            .with_scale(Scale::Log { floor: 0.0 }),
        Panel::new("short", "y").with_series("three", vec![1.0, 2.0, 3.0]),
    ];
    let svg = plot_svg(&trajectory, &panels);
    elements(&svg);
    for bad in ["NaN", "inf"] {
        assert!(!svg.contains(bad), "{bad} leaked into the SVG");
    }
    assert!(svg.contains("odd &amp; &lt;names&gt; &quot;quoted&quot;"));
    // The flat energy gets the range 0.25..0.75 with ticks 0.3..0.7, not ticks of rounding noise.
    let flat = &svg[..svg.find(">odd &amp;").unwrap()];
    for label in ["0.3", "0.4", "0.5", "0.6", "0.7"] {
        assert!(
            flat.contains(&format!(">{label}</text>")),
            "no tick {label}"
        );
    }
}

#[test]
fn svg_of_tiny_and_huge_values_has_readable_ticks() {
    let trajectory = oscillator_trajectory();
    let n = trajectory.times.len();
    let tiny: Vec<f64> = (0..n).map(|k| 1e-14 * (k as f64 / n as f64)).collect();
    let huge: Vec<f64> = (0..n).map(|k| 3e8 + 1e7 * k as f64 / n as f64).collect();
    let panels = vec![
        Panel::new("tiny", "r").with_series("r", tiny),
        Panel::new("huge", "c").with_series("c", huge),
    ];
    let svg = plot_svg(&trajectory, &panels);
    elements(&svg);
    // Steps of 2e-15 up to 1e-14, and of 2e6 around 3e8: scientific labels, equal digits.
    for label in ["0", "2.0e-15", "1.0e-14", "3.00e8", "3.02e8", "3.10e8"] {
        assert!(svg.contains(&format!(">{label}</text>")), "no tick {label}");
    }
}

#[test]
fn unknown_column_is_an_error() {
    let error = Panel::new("p", "y")
        .with_columns(&oscillator_trajectory(), &["nope"])
        .unwrap_err();
    assert!(error.to_string().contains("no column `nope`"));
}
