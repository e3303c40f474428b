# Type stubs of the compiled module walkmesh._walkmesh (python/src/*.rs). Kept by hand: the
# tests compare the names here with the module's (python/tests/test_api.py).
import os
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

Source = Union[str, "os.PathLike[str]", bytes, bytearray]
PathLike = Union[str, "os.PathLike[str]"]
Finding = Dict[str, Any]
"""severity ("error", "warning", "info"), code, message, file, offset, line, field."""
Report = Dict[str, Any]
"""The report `walkmesh convert --json` prints."""

__version__: str
area: ModuleType

class Error(Exception):
    """Base of every walkmesh error."""

    file: Optional[str]
    offset: Optional[int]
    line: Optional[int]
    field: Optional[str]
    code: Optional[str]
    # "truncated", "invalid", "unsupported", "limit", "io" or "parameter" (docs/cli.md,
    # "Error kinds"); None for a refused write or strict=True.
    kind: Optional[str]
    findings: List[Finding]

class ReadError(Error): ...
class WriteError(Error): ...
class InvalidOutput(WriteError): ...

class FileNotFound(ReadError, FileNotFoundError):
    """A file that does not exist: also Python's FileNotFoundError (errno ENOENT)."""

class Mesh:
    vertices: npt.NDArray[np.float32]
    """N×3, settable."""
    @property
    def faces(self) -> Optional[npt.NDArray[np.uint32]]: ...
    @property
    def triangles_only(self) -> bool: ...
    @property
    def polygon_offsets(self) -> npt.NDArray[np.uint32]: ...
    @property
    def polygon_indices(self) -> npt.NDArray[np.uint32]: ...
    @property
    def materials(self) -> List[str]: ...
    @materials.setter
    def materials(self, value: Union[str, Sequence[str]]) -> None: ...
    @property
    def material_ids(self) -> npt.NDArray[np.uint16]: ...
    @property
    def material_codes(self) -> npt.NDArray[np.uint32]: ...
    @material_codes.setter
    def material_codes(self, value: npt.ArrayLike) -> None: ...
    @property
    def walkable(self) -> npt.NDArray[np.bool_]: ...
    @walkable.setter
    def walkable(self, value: npt.ArrayLike) -> None: ...
    @property
    def transitions(self) -> npt.NDArray[np.int32]: ...
    @transitions.setter
    def transitions(self, value: npt.ArrayLike) -> None: ...
    @property
    def hooks(self) -> List[Dict[str, Any]]: ...
    @hooks.setter
    def hooks(
        self,
        value: Sequence[Union[Dict[str, Any], Tuple[str, Tuple[float, float, float]]]],
    ) -> None: ...
    kind: str
    """area, placeable, door or terrain."""
    origin: Tuple[float, float, float]
    @property
    def face_attributes(self) -> Dict[str, npt.NDArray[Any]]: ...
    extras: Dict[str, Any]
    tile_grid: Optional[Dict[str, Any]]
    @property
    def source_format(self) -> Optional[str]: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def warnings(self) -> List[Finding]: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def face_count(self) -> int: ...
    def route(
        self,
        a: Sequence[float],
        b: Sequence[float],
        method: Optional[str] = None,
    ) -> Dict[str, Any]: ...
    def reach(
        self,
        start: Optional[Sequence[float]] = None,
        method: Optional[str] = None,
    ) -> Dict[str, Any]: ...
    @staticmethod
    def from_arrays(
        vertices: npt.ArrayLike,
        faces: Union[npt.ArrayLike, Sequence[Sequence[int]]],
        materials: Union[None, str, Sequence[str]] = None,
        walkable: Optional[npt.ArrayLike] = None,
        transitions: Optional[npt.ArrayLike] = None,
        hooks: Optional[
            Sequence[Union[Dict[str, Any], Tuple[str, Tuple[float, float, float]]]]
        ] = None,
        kind: str = "area",
        origin: Optional[Tuple[float, float, float]] = None,
        face_attributes: Optional[Dict[str, npt.ArrayLike]] = None,
    ) -> "Mesh": ...
    def set_face_attribute_column(self, name: str, values: Optional[npt.ArrayLike]) -> None: ...
    def info(self) -> Dict[str, Any]: ...
    def lint(
        self,
        engine: Optional[str] = None,
        level: str = "default",
        model: Optional[Union[PathLike, "Mesh", Sequence[Union[PathLike, "Mesh"]]]] = None,
        *,
        agent_height: Optional[float] = None,
        agent_radius: Optional[float] = None,
        max_climb: Optional[float] = None,
        max_slope: Optional[float] = None,
        cell_size: Optional[float] = None,
        cell_height: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> List[Dict[str, Any]]: ...
    def write(self, path: PathLike, format: Optional[str] = None, **options: Any) -> Report: ...
    def to_bytes(self, format: str, **options: Any) -> bytes: ...
    def view(self, path: PathLike, other: Optional["Mesh"] = None) -> str: ...
    def copy(self) -> "Mesh": ...
    def __copy__(self) -> "Mesh": ...
    def __deepcopy__(self, _memo: Any) -> "Mesh": ...
    def __eq__(self, other: object) -> bool: ...

def read(source: Source, format: Optional[str] = None, **options: Any) -> Mesh: ...
def read_lyt(source: Source) -> Dict[str, Any]: ...
def convert(
    src: Source,
    dst: PathLike,
    from_format: Optional[str] = None,
    to_format: Optional[str] = None,
    **options: Any,
) -> Report: ...
def validate(
    source: Union[Source, Mesh], format: Optional[str] = None, **options: Any
) -> List[Finding]: ...
def formats() -> List[Dict[str, Any]]: ...
def material_names() -> List[str]: ...
def generate(
    inputs: Union[Source, Mesh, Sequence[Union[Source, Mesh]]],
    engine: Optional[str] = None,
    *,
    kind: Optional[str] = None,
    agent_height: Optional[float] = None,
    agent_radius: Optional[float] = None,
    max_climb: Optional[float] = None,
    max_slope: Optional[float] = None,
    cell_size: Optional[float] = None,
    cell_height: Optional[float] = None,
    min_region_area: Optional[float] = None,
    min_passage_width: Optional[float] = None,
    seeds: Optional[Sequence[Tuple[float, float, float]]] = None,
    keep_unreachable: bool = False,
    default_material: Optional[str] = None,
    up: Optional[str] = None,
    max_memory: Optional[int] = None,
    not_floor: Optional[Sequence[str]] = None,
    with_report: bool = False,
) -> Any: ...
def _python_wording(text: str) -> str: ...
