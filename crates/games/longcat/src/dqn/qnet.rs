//! The Q-network of the solution-down DQN: two small convolutions over the head-centred view,
//! the heading joined in, two linear layers to one Q-value per direction.

use super::env::SolutionDownEnv;
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{conv2d, linear, Conv2d, Conv2dConfig, Linear, Module, VarBuilder};
use serde::{Deserialize, Serialize};

/// Filters of the first convolution.
pub const CONV1: usize = 16;
/// Filters of the second convolution (stride 2).
pub const CONV2: usize = 16;
/// Width of the hidden linear layer.
pub const HIDDEN: usize = 128;
/// Heading features appended after the convolutions.
pub const HEADING: usize = 5;

/// The shape of a Q-network, saved in its sidecar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QNetShape {
    /// Board width the network was built for.
    pub width: usize,
    /// Board height.
    pub height: usize,
}

impl QNetShape {
    /// View width `2w − 1`.
    pub fn view_width(&self) -> usize {
        2 * self.width - 1
    }

    /// View height `2h − 1`.
    pub fn view_height(&self) -> usize {
        2 * self.height - 1
    }

    fn flat(&self) -> usize {
        CONV2 * self.view_height().div_ceil(2) * self.view_width().div_ceil(2)
    }
}

/// The Q-network.
#[derive(Debug, Clone)]
pub struct QNet {
    conv1: Conv2d,
    conv2: Conv2d,
    fc1: Linear,
    head: Linear,
    shape: QNetShape,
}

impl QNet {
    /// Builds the network; names under `vb` become the safetensors keys.
    ///
    /// # Errors
    /// A candle error when a weight is missing or has the wrong shape.
    pub fn new(shape: QNetShape, vb: VarBuilder) -> candle_core::Result<Self> {
        let same = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let strided = Conv2dConfig {
            padding: 1,
            stride: 2,
            ..Default::default()
        };
        Ok(Self {
            conv1: conv2d(3, CONV1, 3, same, vb.pp("conv1"))?,
            conv2: conv2d(CONV1, CONV2, 3, strided, vb.pp("conv2"))?,
            fc1: linear(shape.flat() + HEADING, HIDDEN, vb.pp("fc1"))?,
            head: linear(HIDDEN, 4, vb.pp("q"))?,
            shape,
        })
    }

    /// The shape the network was built for.
    pub fn shape(&self) -> QNetShape {
        self.shape
    }

    /// Q-values `(batch, 4)` from views `(batch, 3, 2h−1, 2w−1)` and headings `(batch, 5)`.
    ///
    /// # Errors
    /// A candle error on mismatched shapes.
    pub fn forward(&self, views: &Tensor, headings: &Tensor) -> candle_core::Result<Tensor> {
        let x = self.conv1.forward(views)?.relu()?;
        let x = self.conv2.forward(&x)?.relu()?;
        let x = x.flatten_from(1)?;
        let x = Tensor::cat(&[&x, headings], D::Minus1)?;
        let x = self.fc1.forward(&x)?.relu()?;
        self.head.forward(&x)
    }

    /// Q-values for a batch of environments, as rows of four numbers.
    ///
    /// # Errors
    /// A candle error.
    pub fn q_values(
        &self,
        envs: &[&SolutionDownEnv],
        device: &Device,
    ) -> candle_core::Result<Vec<[f32; 4]>> {
        if envs.is_empty() {
            return Ok(Vec::new());
        }
        let (views, headings) = batch_inputs(envs, self.shape, device)?;
        let q = self
            .forward(&views, &headings)?
            .to_dtype(DType::F32)?
            .to_vec2::<f32>()?;
        Ok(q.into_iter().map(|r| [r[0], r[1], r[2], r[3]]).collect())
    }
}

/// The network inputs of a batch of environments.
///
/// # Errors
/// A candle error.
pub fn batch_inputs(
    envs: &[&SolutionDownEnv],
    shape: QNetShape,
    device: &Device,
) -> candle_core::Result<(Tensor, Tensor)> {
    let len = SolutionDownEnv::observation_len(shape.width, shape.height);
    let mut views = vec![0f32; envs.len() * len];
    let mut headings = Vec::with_capacity(envs.len() * HEADING);
    for (i, env) in envs.iter().enumerate() {
        env.observe(&mut views[i * len..(i + 1) * len]);
        headings.extend_from_slice(&env.heading_features());
    }
    let views = Tensor::from_vec(
        views,
        (envs.len(), 3, shape.view_height(), shape.view_width()),
        device,
    )?;
    let headings = Tensor::from_vec(headings, (envs.len(), HEADING), device)?;
    Ok((views, headings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_nn::VarMap;

    #[test]
    fn q_values_have_one_column_per_direction() {
        let varmap = VarMap::new();
        let shape = QNetShape {
            width: 8,
            height: 8,
        };
        let net = QNet::new(
            shape,
            VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu),
        )
        .unwrap();
        let views = Tensor::zeros((7, 3, 15, 15), DType::F32, &Device::Cpu).unwrap();
        let headings = Tensor::zeros((7, HEADING), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(net.forward(&views, &headings).unwrap().dims(), &[7, 4]);
        let envs: Vec<SolutionDownEnv> = (0..3).map(|s| SolutionDownEnv::new(8, 8, s)).collect();
        let refs: Vec<&SolutionDownEnv> = envs.iter().collect();
        assert_eq!(net.q_values(&refs, &Device::Cpu).unwrap().len(), 3);
    }
}
