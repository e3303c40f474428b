# Type stubs of walkmesh.area (area.py re-exports the compiled walkmesh._walkmesh.area).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._walkmesh import Mesh

PathLike = Union[str, "os.PathLike[str]"]

def list(archive_path: PathLike) -> List[str]: ...  # noqa: A001
def read_lyt(source: Union[PathLike, bytes]) -> Dict[str, Any]: ...
def assemble(rooms: PathLike, lyt: Optional[PathLike] = None) -> Mesh: ...
def solve_transitions(
    rooms: PathLike,
    lyt: Optional[PathLike] = None,
    tolerance: float = 0.05,
    vertical_tolerance: float = 0.1,
) -> Dict[str, Any]: ...
def solve_mesh_transitions(
    rooms: Sequence[Tuple[int, str, Mesh]],
    room_count: Optional[int] = None,
    tolerance: Optional[float] = None,
    vertical_tolerance: Optional[float] = None,
) -> Dict[str, Any]: ...

def generate(
    models: PathLike,
    out_dir: PathLike,
    *,
    lyt: Optional[PathLike] = None,
    seeds: Optional[Sequence[Tuple[float, float, float]]] = None,
    agent_height: Optional[float] = None,
    agent_radius: Optional[float] = None,
    max_climb: Optional[float] = None,
    max_slope: Optional[float] = None,
    cell_size: Optional[float] = None,
    cell_height: Optional[float] = None,
    min_region_area: Optional[float] = None,
    min_passage_width: Optional[float] = None,
    not_floor: Optional[Sequence[str]] = None,
    max_memory: Optional[int] = None,
) -> Dict[str, Any]: ...

_RoomMeshes = Union[Mesh, Sequence[Mesh]]

def generate_meshes(
    rooms: Sequence[
        Union[
            Tuple[str, _RoomMeshes],
            Tuple[str, _RoomMeshes, Tuple[float, float, float]],
        ]
    ],
    *,
    lyt: Optional[PathLike] = None,
    out_dir: Optional[PathLike] = None,
    lyt_name: Optional[str] = None,
    seeds: Optional[Sequence[Tuple[float, float, float]]] = None,
    agent_height: Optional[float] = None,
    agent_radius: Optional[float] = None,
    max_climb: Optional[float] = None,
    max_slope: Optional[float] = None,
    cell_size: Optional[float] = None,
    cell_height: Optional[float] = None,
    min_region_area: Optional[float] = None,
    min_passage_width: Optional[float] = None,
    not_floor: Optional[Sequence[str]] = None,
    max_memory: Optional[int] = None,
) -> Dict[str, Any]: ...

__all__ = [
    "assemble",
    "generate",
    "generate_meshes",
    "list",
    "read_lyt",
    "solve_mesh_transitions",
    "solve_transitions",
]
