//! SVG plots of a trajectory: stacked panels sharing the time axis.
//!
//! The SVG is written by hand: polylines, a frame, 1-2-5 ticks with grid lines, rotated axis
//! labels and a legend to the right of each panel. Text is placed with `text-anchor` only, so no
//! font metrics are needed and the output does not depend on the fonts of the machine. All
//! coordinates are printed with two decimals, and nothing depends on hash order or the clock:
//! equal inputs give byte-identical SVG.
//!
//! NaN, infinite and huge (`|v| > 1e300`) values break a series' polyline instead of being drawn.
//! A series longer than the trajectory's time column is cut to it. A [`Scale::Log`] panel plots
//! `log10(max(|v|, floor))`, the form suited to constraint residuals whose size spans decades.

use std::fmt::{self, Write};

use crate::ticks::{drawable, Axis};
use crate::{Error, Trajectory};

const WIDTH: f64 = 960.0;
const PANEL_HEIGHT: f64 = 330.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 210.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 56.0;
/// Tableau 10 colours; series past the tenth repeat them dashed.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// How a panel's vertical axis maps values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Values as they are.
    Linear,
    /// `log10(max(|v|, floor))`: magnitudes, with values below `floor` (zero among them) drawn
    /// at `floor`. A `floor` that is not positive and finite means the smallest normal `f64`.
    Log {
        /// The smallest magnitude drawn.
        floor: f64,
    },
}

/// One named curve of a panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// One value per sample time of the trajectory.
    pub values: Vec<f64>,
}

/// One plot of the stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// The title above the plot.
    pub title: String,
    /// The vertical axis label.
    pub y_label: String,
    /// The curves, drawn and listed in this order.
    pub series: Vec<Series>,
    /// The vertical scale.
    pub scale: Scale,
}

impl Panel {
    /// An empty linear panel.
    pub fn new(title: impl Into<String>, y_label: impl Into<String>) -> Self {
        Panel {
            title: title.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            scale: Scale::Linear,
        }
    }

    /// The panel with one more series.
    pub fn with_series(mut self, name: impl Into<String>, values: Vec<f64>) -> Self {
        self.series.push(Series {
            name: name.into(),
            values,
        });
        self
    }

    /// The panel with the trajectory's columns `names` as series.
    pub fn with_columns(mut self, trajectory: &Trajectory, names: &[&str]) -> Result<Self, Error> {
        for name in names {
            let values = trajectory.column(name).ok_or_else(|| {
                Error::InvalidInput(format!("no column `{name}` in the trajectory"))
            })?;
            self = self.with_series(*name, values);
        }
        Ok(self)
    }

    /// The panel with vertical scale `scale`.
    pub fn with_scale(self, scale: Scale) -> Self {
        Panel { scale, ..self }
    }

    /// The value a sample is drawn at.
    fn transform(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Linear => v,
            Scale::Log { floor } => {
                let floor = if floor.is_finite() && floor > 0.0 {
                    floor
                } else {
                    f64::MIN_POSITIVE
                };
                if v.is_nan() {
                    v
                } else {
                    v.abs().max(floor).log10()
                }
            }
        }
    }

    fn axis(&self) -> Axis {
        let values = self
            .series
            .iter()
            .flat_map(|s| &s.values)
            .map(|v| self.transform(*v));
        match self.scale {
            Scale::Linear => Axis::linear(values),
            Scale::Log { .. } => Axis::log(values),
        }
    }
}

/// The SVG text being written.
struct Svg(String);

impl Svg {
    fn line(&mut self, args: fmt::Arguments) {
        // Writing into a String cannot fail.
        let _ = self.0.write_fmt(args);
        self.0.push('\n');
    }
}

/// Draws `panels` stacked top to bottom against the trajectory's times, as one SVG document.
pub fn plot_svg(trajectory: &Trajectory, panels: &[Panel]) -> String {
    let height = PANEL_HEIGHT * panels.len().max(1) as f64;
    let mut svg = Svg(String::new());
    svg.line(format_args!(r#"<?xml version="1.0" encoding="UTF-8"?>"#));
    svg.line(format_args!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    ));
    svg.line(format_args!(
        r#"<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="white"/>"#
    ));
    let time = Axis::time(&trajectory.times);
    for (i, panel) in panels.iter().enumerate() {
        let frame = Frame::new(i as f64 * PANEL_HEIGHT);
        let value = panel.axis();
        frame.draw_axes(&mut svg, panel, &time, &value);
        for (j, series) in panel.series.iter().enumerate() {
            let style = stroke(j);
            frame.draw_series(
                &mut svg,
                panel,
                series,
                &trajectory.times,
                (&time, &value),
                &style,
            );
            frame.draw_legend_entry(&mut svg, j, &series.name, &style);
        }
    }
    svg.line(format_args!("</svg>"));
    svg.0
}

/// The stroke attributes of the `j`-th series.
fn stroke(j: usize) -> String {
    let colour = PALETTE[j % PALETTE.len()];
    let dash = if j >= PALETTE.len() {
        r#" stroke-dasharray="6 3""#
    } else {
        ""
    };
    format!(r#"stroke="{colour}" stroke-width="1.5"{dash}"#)
}

/// The plot box of one panel, in SVG coordinates.
struct Frame {
    top: f64,
    left: f64,
    right: f64,
    bottom: f64,
}

impl Frame {
    fn new(y0: f64) -> Self {
        Frame {
            top: y0 + TOP,
            left: LEFT,
            right: WIDTH - RIGHT,
            bottom: y0 + PANEL_HEIGHT - BOTTOM,
        }
    }

    fn x(&self, axis: &Axis, t: f64) -> f64 {
        self.left + axis.fraction(t) * (self.right - self.left)
    }

    fn y(&self, axis: &Axis, v: f64) -> f64 {
        self.bottom - axis.fraction(v) * (self.bottom - self.top)
    }

    /// Title, frame, ticks with grid lines, and axis labels.
    fn draw_axes(&self, svg: &mut Svg, panel: &Panel, time: &Axis, value: &Axis) {
        let (l, r, t, b) = (self.left, self.right, self.top, self.bottom);
        let centre = 0.5 * (l + r);
        svg.line(format_args!(
            r#"<text x="{centre:.2}" y="{:.2}" text-anchor="middle" font-size="15" font-weight="bold">{}</text>"#,
            t - 14.0,
            escape(&panel.title)
        ));
        for (v, label) in &time.ticks {
            let x = self.x(time, *v);
            svg.line(format_args!(
                r##"<line x1="{x:.2}" y1="{t:.2}" x2="{x:.2}" y2="{b:.2}" stroke="#e0e0e0"/>"##
            ));
            svg.line(format_args!(
                r#"<text x="{x:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                b + 16.0,
                escape(label)
            ));
        }
        for (v, label) in &value.ticks {
            let y = self.y(value, *v);
            svg.line(format_args!(
                r##"<line x1="{l:.2}" y1="{y:.2}" x2="{r:.2}" y2="{y:.2}" stroke="#e0e0e0"/>"##
            ));
            svg.line(format_args!(
                r#"<text x="{:.2}" y="{:.2}" text-anchor="end">{}</text>"#,
                l - 6.0,
                y + 4.0,
                escape(label)
            ));
        }
        svg.line(format_args!(
            r#"<rect x="{l:.2}" y="{t:.2}" width="{:.2}" height="{:.2}" fill="none" stroke="black"/>"#,
            r - l,
            b - t
        ));
        svg.line(format_args!(
            r#"<text x="{centre:.2}" y="{:.2}" text-anchor="middle">time t</text>"#,
            b + 38.0
        ));
        let middle = 0.5 * (t + b);
        svg.line(format_args!(
            r#"<text x="22" y="{middle:.2}" text-anchor="middle" transform="rotate(-90 22 {middle:.2})">{}</text>"#,
            escape(&panel.y_label)
        ));
    }

    /// One series as polylines, broken at values that cannot be drawn.
    fn draw_series(
        &self,
        svg: &mut Svg,
        panel: &Panel,
        series: &Series,
        times: &[f64],
        (time, value): (&Axis, &Axis),
        style: &str,
    ) {
        let mut run: Vec<String> = Vec::new();
        for (t, v) in times.iter().zip(&series.values) {
            let y = panel.transform(*v);
            if drawable(*t) && drawable(y) {
                let point = format!("{:.2},{:.2}", self.x(time, *t), self.y(value, y));
                if run.last() != Some(&point) {
                    run.push(point);
                }
            } else {
                flush_run(svg, &mut run, style);
            }
        }
        flush_run(svg, &mut run, style);
    }

    /// The legend line and name of the `j`-th series, right of the plot box.
    fn draw_legend_entry(&self, svg: &mut Svg, j: usize, name: &str, style: &str) {
        let x = self.right + 14.0;
        let y = self.top + 10.0 + 18.0 * j as f64;
        svg.line(format_args!(
            r#"<line x1="{x:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" {style}/>"#,
            x + 24.0
        ));
        svg.line(format_args!(
            r#"<text x="{:.2}" y="{:.2}">{}</text>"#,
            x + 30.0,
            y + 4.0,
            escape(name)
        ));
    }
}

/// Writes the points collected so far (a polyline, or a dot for a lone point) and clears them.
fn flush_run(svg: &mut Svg, run: &mut Vec<String>, style: &str) {
    match run.as_slice() {
        [] => {}
        [point] => {
            let (x, y) = point.split_once(',').unwrap_or(("0", "0"));
            svg.line(format_args!(
                r#"<circle cx="{x}" cy="{y}" r="1.5" fill="none" {style}/>"#
            ));
        }
        points => svg.line(format_args!(
            r#"<polyline points="{}" fill="none" {style}/>"#,
            points.join(" ")
        )),
    }
    run.clear();
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
