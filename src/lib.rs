pub mod blocks;
pub mod demo;
pub mod export;
pub mod flow;
pub mod model;
pub mod params;
pub mod preset_blocks;
pub mod verify;
