pub fn run(
    _: &walkmesh_core::Registry,
    _: &Args,
    _: &mut dyn std::io::Write,
    _: &mut dyn std::io::Write,
) -> Result<i32, crate::Failure> {
    Ok(0)
}
#[derive(clap::Args, Debug)]
pub struct Args {}
