//! [`System::integrate`]: one integration, by the method its [`Settings`] name, through a
//! [`Run`] that calls the hooks and records the samples.

use crate::grid::Grid;
use crate::run::Run;
use crate::{dopri5, rk4, Error, Method, Settings, System, Trajectory};

impl<'a> System<'a> {
    /// Integrates from `x0` at `t = 0` to `settings.t_end`.
    pub fn integrate(&mut self, x0: &[f64], settings: &Settings) -> Result<Trajectory, Error> {
        self.check_names(x0)?;
        settings.check()?;
        let t_end = settings.t_end;
        let dt_out = settings.dt_out.unwrap_or(t_end / 1000.0);
        let mut run = Run::new(self);
        run.sample(0.0, x0)?;
        match settings.method {
            Method::Dopri5(options) => {
                let grid = Grid::new(t_end, dt_out)?;
                dopri5::integrate(&mut run, x0, &grid, &options)?;
            }
            Method::Rk4 { h } => {
                let every = rk4::sample_every(h, settings.dt_out, t_end)?;
                rk4::integrate(&mut run, x0, t_end, h, every, rk4::Stepping::RungeKutta)?;
            }
            Method::Map { h } => {
                let every = rk4::sample_every(h, settings.dt_out, t_end)?;
                rk4::integrate(&mut run, x0, t_end, h, every, rk4::Stepping::Map)?;
            }
        }
        Ok(run.finish())
    }
}
