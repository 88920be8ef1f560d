//! The actor and the critics. Table 6.3 puts two convolution blocks (32, 32, pool, 64, 64,
//! pool) before fully connected layers of 256, 128 and 128; we keep three fully connected
//! layers of 128 and read the 3 × 14 × 40 state directly, so an update costs milliseconds on
//! two CPU cores (the first layer, 1,683 inputs wide, is most of the cost: at 256 an update
//! took about twice as long, and a convolution stack of Table 6.3's size far longer).

use super::{features, Build, STATE_WIDTH};
use candle_core::{Device, Result, Tensor, D};
use candle_nn::VarBuilder;
use studio_ml::Mlp;

/// Widths of the hidden layers (Table 6.3's fully connected layers).
pub const HIDDEN: [usize; 3] = [128, 128, 128];

/// The states of `builds` as one `(n, STATE_WIDTH)` tensor on `device`.
///
/// # Errors
/// A tensor failure.
pub fn state_tensor(builds: &[Build], device: &Device) -> Result<Tensor> {
    let mut x = Vec::with_capacity(builds.len() * STATE_WIDTH);
    for b in builds {
        features(b, &mut x);
    }
    Tensor::from_vec(x, (builds.len(), STATE_WIDTH), device)
}

/// The actor: a level being built → z. Its output layer is linear (centred on 0.5), not a
/// sigmoid: a sigmoid pushed to a corner of the cube stops passing gradient, and the actor
/// stayed there whatever the critic learnt later. Training keeps z inside [0, 1]³ by
/// inverting the critic's gradient near the bounds ([`inverted_gradient`]); what acts is
/// clamped to the cube.
#[derive(Clone, Debug)]
pub struct Actor {
    net: Mlp,
}

impl Actor {
    /// The actor under `vb` (the file keeps it under `actor`).
    ///
    /// # Errors
    /// A missing or misshapen weight.
    pub fn new(vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            net: Mlp::new(&[STATE_WIDTH, HIDDEN[0], HIDDEN[1], HIDDEN[2], 3], vb)?,
        })
    }

    /// The unclamped z for a batch of states (training reads it; see [`Actor::forward`]).
    ///
    /// # Errors
    /// A tensor failure.
    pub fn raw(&self, states: &Tensor) -> Result<Tensor> {
        self.net.forward(states)? + 0.5
    }

    /// The device its weights are on (where its inputs must be made).
    pub fn device(&self) -> Device {
        self.net.device()
    }

    /// z for a batch of states, clamped to [0, 1]³.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn forward(&self, states: &Tensor) -> Result<Tensor> {
        self.raw(states)?.clamp(0f32, 1f32)
    }

    /// The actor's z for each level being built.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn act(&self, builds: &[Build]) -> Result<Vec<[f64; 3]>> {
        if builds.is_empty() {
            return Ok(Vec::new());
        }
        let y = self
            .forward(&state_tensor(builds, &self.net.device())?)?
            .to_vec2::<f32>()?;
        Ok(y.into_iter()
            .map(|r| {
                [
                    f64::from(r.first().copied().unwrap_or(0.0)),
                    f64::from(r.get(1).copied().unwrap_or(0.0)),
                    f64::from(r.get(2).copied().unwrap_or(0.0)),
                ]
            })
            .collect())
    }
}

/// A critic: a level being built and a z → the expected return. The state passes one layer
/// of its own before z joins it (as in DDPG's critic, Lillicrap et al.): fed beside the 1,680
/// state inputs at the first layer, z's three numbers weigh too little for the critic to
/// tell one z from another, and the actor it trains sat at one corner of the cube.
#[derive(Clone, Debug)]
pub struct Critic {
    state: candle_nn::Linear,
    head: Mlp,
}

impl Critic {
    /// The critic under `vb` (the file keeps the first under `critic`).
    ///
    /// # Errors
    /// A missing or misshapen weight.
    pub fn new(vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            state: candle_nn::linear(STATE_WIDTH, HIDDEN[0], vb.pp("state"))?,
            head: Mlp::new(&[HIDDEN[0] + 3, HIDDEN[1], HIDDEN[2], 1], vb.pp("head"))?,
        })
    }

    /// The device its weights are on (where its inputs must be made).
    pub fn device(&self) -> Device {
        self.state.weight().device().clone()
    }

    /// Q for a batch of states and actions, shape `(n,)`.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn forward(&self, states: &Tensor, actions: &Tensor) -> Result<Tensor> {
        use candle_nn::Module;
        let h = self.state.forward(states)?.relu()?;
        self.head
            .forward(&Tensor::cat(&[&h, actions], D::Minus1)?)?
            .squeeze(D::Minus1)
    }

    /// Q of each of `actions` in `build`.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn values(&self, build: &Build, actions: &[[f64; 3]]) -> Result<Vec<f64>> {
        if actions.is_empty() {
            return Ok(Vec::new());
        }
        let device = self.device();
        let states = state_tensor(&vec![build.clone(); actions.len()], &device)?;
        let acts: Vec<f32> = actions.iter().flat_map(|a| a.map(|v| v as f32)).collect();
        let acts = Tensor::from_vec(acts, (actions.len(), 3), &device)?;
        Ok(self
            .forward(&states, &acts)?
            .to_vec1::<f32>()?
            .into_iter()
            .map(f64::from)
            .collect())
    }
}

/// The critic's gradient on z, inverted near the bounds of [0, 1] (Hausknecht and Stone,
/// "Deep reinforcement learning in parameterized action space", 2016): a component that
/// would raise z is scaled by `1 − z`, one that would lower it by `z`, so the step shrinks as
/// z nears a bound and reverses past it. `z` is the actor's unclamped output.
///
/// # Errors
/// A tensor failure.
pub fn inverted_gradient(gradient: &Tensor, z: &Tensor) -> Result<Tensor> {
    let rising = gradient.gt(0f32)?;
    let room_up = z.affine(-1.0, 1.0)?;
    gradient * rising.where_cond(&room_up, z)?
}
