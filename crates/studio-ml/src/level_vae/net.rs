//! The two networks of the level VAE, the same two families as the blend lab's: a fully
//! connected one (`fc`) and a convolutional one (`cnn`). Both encode one-hot cells plus the
//! conditions into μ and log σ² of the latent space, and decode a latent point plus the
//! conditions into one logit per tile per cell of the model's grid.

use crate::Mlp;
use candle_core::{Module, Tensor};
use candle_nn::{conv2d, linear, Conv2d, Conv2dConfig, Linear, VarBuilder};
use serde::{Deserialize, Serialize};

/// Which network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// Fully connected: 512 → 256 → latent, and back.
    #[default]
    Fc,
    /// Convolutional: two 3 × 3 convolutions (the second of stride 2), a dense layer, and
    /// back through nearest-neighbour upsampling and two convolutions.
    Cnn,
}

impl std::str::FromStr for Arch {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fc" => Ok(Self::Fc),
            "cnn" => Ok(Self::Cnn),
            _ => Err(format!("--arch {s:?}: fc or cnn")),
        }
    }
}

impl std::fmt::Display for Arch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Fc => "fc",
            Self::Cnn => "cnn",
        })
    }
}

/// The sizes a network is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    /// Grid width.
    pub width: usize,
    /// Grid height.
    pub height: usize,
    /// Tiles in the palette.
    pub tiles: usize,
    /// Condition numbers.
    pub conds: usize,
    /// Latent dimensions.
    pub latent: usize,
}

impl NetShape {
    /// Cells of the grid.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }
}

/// Hidden widths of the fully connected network.
const FC_HIDDEN: [usize; 2] = [512, 256];
/// Filters of the convolutional network's two convolutions.
const CNN_CHANNELS: [usize; 2] = [32, 64];
/// The dense layer of the convolutional network.
const CNN_DENSE: usize = 256;

/// The fully connected VAE.
struct Fc {
    enc: Mlp,
    mu: Linear,
    logvar: Linear,
    dec: Mlp,
}

/// The convolutional VAE.
struct Cnn {
    enc: [Conv2d; 2],
    dense: Linear,
    mu: Linear,
    logvar: Linear,
    d_dense: Linear,
    d_grid: Linear,
    dec: [Conv2d; 2],
}

/// A level VAE's network.
pub struct Net {
    shape: NetShape,
    body: Body,
}

enum Body {
    Fc(Fc),
    Cnn(Box<Cnn>),
}

/// A side padded to an odd length: a 3 × 3 convolution of stride 2 and padding 1 then
/// covers it exactly (candle's gradient of a strided convolution needs that).
fn odd(n: usize) -> usize {
    n | 1
}

/// What a 3 × 3 convolution of stride 2 and padding 1 leaves of a side (padded to odd).
fn half(n: usize) -> usize {
    odd(n).div_ceil(2)
}

impl Net {
    /// Builds (or loads) the network under `vb`.
    ///
    /// # Errors
    /// A weight missing or of the wrong shape.
    pub fn new(arch: Arch, shape: NetShape, vb: VarBuilder) -> candle_core::Result<Self> {
        let input = shape.cells() * shape.tiles;
        let body = match arch {
            Arch::Fc => {
                let [h1, h2] = FC_HIDDEN;
                Body::Fc(Fc {
                    enc: Mlp::new(&[input + shape.conds, h1, h2], vb.pp("enc"))?,
                    mu: linear(h2, shape.latent, vb.pp("mu"))?,
                    logvar: linear(h2, shape.latent, vb.pp("logvar"))?,
                    dec: Mlp::new(&[shape.latent + shape.conds, h2, h1, input], vb.pp("dec"))?,
                })
            }
            Arch::Cnn => {
                let [c1, c2] = CNN_CHANNELS;
                let same = Conv2dConfig {
                    padding: 1,
                    ..Default::default()
                };
                let strided = Conv2dConfig {
                    padding: 1,
                    stride: 2,
                    ..Default::default()
                };
                let flat = c2 * half(shape.width) * half(shape.height);
                Body::Cnn(Box::new(Cnn {
                    enc: [
                        conv2d(shape.tiles, c1, 3, same, vb.pp("c1"))?,
                        conv2d(c1, c2, 3, strided, vb.pp("c2"))?,
                    ],
                    dense: linear(flat + shape.conds, CNN_DENSE, vb.pp("dense"))?,
                    mu: linear(CNN_DENSE, shape.latent, vb.pp("mu"))?,
                    logvar: linear(CNN_DENSE, shape.latent, vb.pp("logvar"))?,
                    d_dense: linear(shape.latent + shape.conds, CNN_DENSE, vb.pp("d_dense"))?,
                    d_grid: linear(CNN_DENSE, flat, vb.pp("d_grid"))?,
                    dec: [
                        conv2d(c2, c1, 3, same, vb.pp("u1"))?,
                        conv2d(c1, shape.tiles, 3, same, vb.pp("u2"))?,
                    ],
                }))
            }
        };
        Ok(Self { shape, body })
    }

    /// (μ, log σ²) `[N, latent]` of one-hot inputs `[N, cells·tiles]` under conditions
    /// `[N, C]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn encode(&self, x: &Tensor, cond: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let s = self.shape;
        let h = match &self.body {
            Body::Fc(fc) => fc.enc.forward(&Tensor::cat(&[x, cond], 1)?)?.relu()?,
            Body::Cnn(cnn) => {
                let n = x.dim(0)?;
                let mut h = x
                    .reshape((n, s.height, s.width, s.tiles))?
                    .permute((0, 3, 1, 2))?
                    .pad_with_zeros(2, 0, odd(s.height) - s.height)?
                    .pad_with_zeros(3, 0, odd(s.width) - s.width)?
                    .contiguous()?;
                for conv in &cnn.enc {
                    h = conv.forward(&h)?.relu()?;
                }
                let h = Tensor::cat(&[&h.flatten_from(1)?, cond], 1)?;
                cnn.dense.forward(&h)?.relu()?
            }
        };
        let (mu, logvar) = match &self.body {
            Body::Fc(fc) => (&fc.mu, &fc.logvar),
            Body::Cnn(cnn) => (&cnn.mu, &cnn.logvar),
        };
        Ok((mu.forward(&h)?, logvar.forward(&h)?.clamp(-12.0, 8.0)?))
    }

    /// Logits `[N, cells, tiles]` of latent points `[N, latent]` under conditions `[N, C]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn decode(&self, z: &Tensor, cond: &Tensor) -> candle_core::Result<Tensor> {
        let s = self.shape;
        let n = z.dim(0)?;
        let zc = Tensor::cat(&[z, cond], 1)?;
        match &self.body {
            Body::Fc(fc) => fc.dec.forward(&zc)?.reshape((n, s.cells(), s.tiles)),
            Body::Cnn(cnn) => {
                let (hh, hw) = (half(s.height), half(s.width));
                let h = cnn.d_dense.forward(&zc)?.relu()?;
                let h = cnn
                    .d_grid
                    .forward(&h)?
                    .relu()?
                    .reshape((n, CNN_CHANNELS[1], hh, hw))?
                    .upsample_nearest2d(hh * 2, hw * 2)?
                    .narrow(2, 0, s.height)?
                    .narrow(3, 0, s.width)?
                    .contiguous()?;
                let h = cnn.dec[0].forward(&h)?.relu()?;
                let h = cnn.dec[1].forward(&h)?;
                h.permute((0, 2, 3, 1))?.reshape((n, s.cells(), s.tiles))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_networks_decode_a_grid_of_odd_sides() {
        for arch in [Arch::Fc, Arch::Cnn] {
            let varmap = candle_nn::VarMap::new();
            let vb = VarBuilder::from_varmap(
                &varmap,
                candle_core::DType::F32,
                &candle_core::Device::Cpu,
            );
            let shape = NetShape {
                width: 5,
                height: 3,
                tiles: 4,
                conds: 2,
                latent: 6,
            };
            let net = Net::new(arch, shape, vb).unwrap();
            let dev = candle_core::Device::Cpu;
            let x = Tensor::zeros((2, 60), candle_core::DType::F32, &dev).unwrap();
            let c = Tensor::zeros((2, 2), candle_core::DType::F32, &dev).unwrap();
            let (mu, _) = net.encode(&x, &c).unwrap();
            assert_eq!(mu.dims(), [2, 6]);
            assert_eq!(net.decode(&mu, &c).unwrap().dims(), [2, 15, 4]);
        }
    }
}
