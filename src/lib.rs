pub mod blocks;
pub mod params;
