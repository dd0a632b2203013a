// TypeScript declarations of kf3ds.mjs (docs/web.md).

export type Vec3 = [number, number, number];

/** What init() can load kf3ds.wasm from; by default kf3ds.wasm beside kf3ds.mjs. */
export type WasmSource = ArrayBuffer | ArrayBufferView | WebAssembly.Module | Response | URL | string;

/** Loads kf3ds.wasm. Calling it again starts a fresh instance; the scenes of
 *  the previous one can no longer be used. */
export function init(source?: WasmSource): Promise<void>;

/** The library's version, "0.1.0". */
export function version(): string;

/** Reads a .3ds file. Throws an Error with `.diagnostics` when nothing could be
 *  read (not a 3DS file, empty); a damaged file gives a Scene with `ok` false. */
export function load(data: ArrayBuffer | ArrayBufferView, options?: { fileName?: string }): Scene;

/** Decodes an Autodesk Animator CEL/PIC picture (Animator 1, Animator Pro PIC
 *  and CEL) with the decoder `kf3ds render` uses: an ImageData-like picture,
 *  RGBA, opaque, for scene.setMap. Throws an Error with `offset` (the byte at
 *  fault) when the bytes are no such picture or a damaged one. */
export function decodeCel(data: ArrayBuffer | ArrayBufferView):
  { width: number; height: number; data: Uint8ClampedArray };

export interface Diagnostic {
  /** Byte offset in the file where it was found. */
  offset: number;
  /** The chunk's name ("FACE_ARRAY"), "?" for an unknown id, "" when none. */
  chunk: string;
  chunkId: number;
  /** A few words: "truncated data", "chunk overrun", "unsorted keys", "truncated" (a cut file)... */
  code: string;
  message: string;
  severity: 'warning' | 'error';
}

export type TrackKind = 'pos' | 'rot' | 'scl' | 'fov' | 'roll' | 'col' | 'morph' | 'hot' | 'fall' | 'hide';

export interface Key {
  frame: number;
  splineFlags: number;
  tension: number;
  continuity: number;
  bias: number;
  easeTo: number;
  easeFrom: number;
  /** pos/scl/col: 3; rot: angle (radians, relative to the previous key) and axis;
   *  fov/roll/hot/fall: 1; morph/hide: none. */
  value: number[];
  /** rot: the accumulated rotation x, y, z, w. */
  quat?: number[];
  /** morph: the target object's name and mesh index (-1 when none). */
  morph?: string;
  morphMesh?: number;
}

export interface Track {
  flags: number;
  loop: 'single' | 'wrap' | 'repeat' | 'loop';
  /** Sorted by frame. */
  keys: Key[];
}

export interface Node {
  index: number;
  name: string;
  type: 'ambient' | 'object' | 'camera' | 'target' | 'light' | 'ltarget' | 'spot';
  /** Index of the parent node, -1 for roots. */
  parent: number;
  id: number;
  instance?: string;
  /** Indices into meshes, cameras, lights, nodes (the target); -1 when none. */
  mesh: number;
  camera: number;
  light: number;
  target: number;
  flags1: number;
  flags2: number;
  pivot: Vec3;
  dummy: boolean;
  depth: number;
  offset: number;
  /** The tracks that have keys (read when first asked for). */
  readonly tracks: Partial<Record<TrackKind, Track>>;
}

export interface Mesh {
  index: number;
  name: string;
  numPoints: number;
  numFaces: number;
  numTexcoords: number;
  numGroups: number;
  mirrored: boolean;
  hidden: boolean;
  color: number;
}

export type MapKind = 'texture1' | 'texture2' | 'opacity' | 'bump' | 'specular' | 'shininess' |
  'selfIllum' | 'reflection';

export interface TextureMap {
  file: string;
  strength: number;
  tiling: number;
  blur: number;
  uScale: number;
  vScale: number;
  uOffset: number;
  vOffset: number;
  rotation: number;
}

export interface Material {
  index: number;
  name: string;
  ambient: Vec3;
  diffuse: Vec3;
  specular: Vec3;
  shininess: number;
  shinStrength: number;
  transparency: number;
  selfIllum: number;
  wireSize: number;
  /** 0 wire, 1 flat, 2 Gouraud, 3 Phong, 4 metal. */
  shading: number;
  twoSided: boolean;
  additive: boolean;
  wire: boolean;
  decal: boolean;
  faceMap: boolean;
  soften: boolean;
  selfIllumFlag: boolean;
  /** The maps the material names a file for. */
  maps: Partial<Record<MapKind, TextureMap>>;
}

export interface Camera {
  index: number;
  name: string;
  position: Vec3;
  target: Vec3;
  roll: number;
  lens: number;
  fov: number;
  near: number;
  far: number;
  seeCone: boolean;
  hidden: boolean;
}

export interface Light {
  index: number;
  name: string;
  position: Vec3;
  color: Vec3;
  off: boolean;
  spot: boolean;
  hidden: boolean;
  attenuate: boolean;
  shadowed: boolean;
  seeCone: boolean;
  rectangular: boolean;
  overshoot: boolean;
  innerRange: number;
  outerRange: number;
  multiplier: number;
  /** Spotlights only. */
  target?: Vec3;
  hotspot?: number;
  falloff?: number;
  roll?: number;
}

export interface Environment {
  background: 'none' | 'bitmap' | 'solid' | 'gradient';
  atmosphere: 'none' | 'fog' | 'layerFog' | 'distanceCue';
  bitmap: string;
  solid: Vec3;
  gradientMid: number;
  gradient: [Vec3, Vec3, Vec3];
  fog: { near: number; nearDensity: number; far: number; farDensity: number; color: Vec3; background: boolean };
  layerFog: { bottom: number; top: number; density: number; flags: number; color: Vec3 };
  distanceCue: { near: number; nearDim: number; far: number; farDim: number; background: boolean };
}

export interface RenderOptions {
  /** Pixels, 1 to 16384 each, at most 32 Mi in all; default 640×480. */
  width?: number;
  height?: number;
  /** Default: the segment's first frame. |frame| ≤ 1e9. */
  frame?: number;
  /** Look through this camera node (name or node index), else an editor camera of that name. */
  camera?: string | number;
  /** [azimuth, elevation] in degrees (default [35, 25]); never through a camera then. */
  orbit?: [number, number];
  shading?: 'smooth' | 'flat' | 'wire' | 'wireframe';
  overlays?: string | Array<'hierarchy' | 'pivots' | 'cameras' | 'lights' | 'grid' | 'names' | 'all' | 'none'>;
  /** One-sided faces, as 3D Studio renders (`--cull`). */
  cull?: boolean;
  /** false: leave out the file's background and fog (`--no-environment`). */
  environment?: boolean;
  /** false: no "frame N" label (`--no-label`). */
  label?: boolean;
  noEase?: boolean;
  /** false: leave out the file's omni and spot lights. */
  fileLights?: boolean;
  /** 0xRRGGBB where the file has no background in effect; 0 (default) a dark grey. */
  background?: number;
  /** The orbit view moved towards the scene's centre, 0.01 to 100: below 1
   *  nearer (as the wheel zooms in `kf3ds view`); default 1. */
  zoom?: number;
  /** The orbit view moved sideways, [x, y] as fractions of its distance. */
  pan?: [number, number];
  /** `kf3ds view`'s m: every moving node's motion path over the segment drawn
   *  over the picture (objects yellow, cameras and targets cyan, lights orange). */
  paths?: boolean;
  /** `kf3ds view`'s t: the orbit view following the objects, a box of their
   *  size at this frame (true: at `frame`) around them as they are at `frame`. */
  follow?: boolean | number;
  /** The array to write the pixels into (exactly width×height×4 bytes) and
   *  return, instead of a new one: a playing page saves allocating a picture
   *  per frame. */
  into?: Uint8ClampedArray | Uint8Array;
}

export interface SaveOptions {
  canonical?: boolean;
  dropUnknown?: boolean;
  noKeyframer?: boolean;
  /** [start, end], integers: the active segment (KFSEG). */
  segment?: [number, number];
}

/** scene.exportGlb's options: `kf3ds export`'s that need no file system. */
export interface ExportOptions {
  /** false: the pose at the first frame, no animation (--no-animation). */
  animation?: boolean;
  /** The pose at this frame, no animation (--static-frame F); takes no
   *  frames, rate or cubic. */
  staticFrame?: number;
  /** [first, last], whole frames: these instead of the file's segment. */
  frames?: [number, number];
  /** Frames per second of the glTF timeline, above 0 up to 100000; default 30. */
  fps?: number;
  /** Samples per frame of the sampled channels, 1 to 1000; default 1. */
  rate?: number;
  /** Position and scale tracks without ease as CUBICSPLINE. */
  cubic?: boolean;
  /** LINEAR (and STEP) keys only, within the bound but without the
   *  per-frame key cap (--linear), for readers that drop CUBICSPLINE
   *  tangents such as Blender 3.4's importer; takes no cubic. */
  linear?: boolean;
  /** Hide nodes with KHR_node_visibility instead of scale 0. */
  visibilityExt?: boolean;
  /** Ignore ease-to/ease-from. */
  noEase?: boolean;
  /** The texture images inside the .glb instead of referred to by name. */
  embedImages?: boolean;
  /** The texture maps' files (PNG or JPEG go into glTF) keyed by file name;
   *  a material's map is found by its stored name's last part, that
   *  spelling first, then in any case. */
  images?: Record<string, ArrayBuffer | ArrayBufferView> |
    Map<string, ArrayBuffer | ArrayBufferView>;
  /** Told each map left out, in the command's words. */
  onWarning?: (message: string, warning: { kind: 'missing' | 'type'; map: string }) => void;
}

/** scene.bake's options: `kf3ds bake`'s. */
export interface BakeOptions {
  /** [first, last]: numbers or decimal strings, at most 6 decimals; default
   *  the file's segment. */
  frames?: [number | string, number | string];
  /** The step between baked frames, above 0; default 1. */
  step?: number | string;
  /** 16.16 signed fixed point instead of IEEE float. */
  fixed?: boolean;
  /** Fraction bits of the fixed point, 0 to 28, or 'auto' (the most that
   *  fit); implies fixed. */
  fracBits?: number | 'auto';
  /** Matrices, visibility and channels only. */
  noMeshes?: boolean;
  /** Only the nodes with these names (or instance names). */
  nodes?: string[];
  /** `kf3ds bake --tolerance`: the step halved until an engine that lerps
   *  the baked matrices stays within this fraction of the scene's extent
   *  between frames (1e-9 to 0.1). */
  tolerance?: number;
}

/** RGBA bytes, as ImageData holds them. */
export interface Picture {
  width: number;
  height: number;
  data: ArrayBuffer | ArrayBufferView;
}

export class Scene {
  private constructor();
  readonly fileName: string;
  /** No error among the diagnostics. */
  readonly ok: boolean;
  /** The first error, or null. */
  readonly error: Diagnostic | null;
  readonly diagnostics: Diagnostic[];
  /** Diagnostics beyond the loader's limit, counted only. */
  readonly droppedDiagnostics: number;
  readonly nodes: Node[];
  readonly meshes: Mesh[];
  readonly materials: Material[];
  readonly cameras: Camera[];
  readonly lights: Light[];
  readonly environment: Environment;
  readonly segment: { start: number; end: number };
  readonly animLength: number;
  readonly currentFrame: number;
  readonly hasKeyframer: boolean;
  readonly keyframerFileName: string | null;
  readonly keyframerRevision: number;
  readonly placesMeshes: boolean;
  readonly version: number;
  readonly meshVersion: number;
  readonly masterScale: number;
  readonly ambient: Vec3;
  /** True after free() (or when init() replaced the module instance). */
  readonly freed: boolean;

  /** Every node's world matrix at `frame`, 16 floats per node, row-major
   *  (column vectors: translation in elements 3, 7, 11). */
  eval(frame: number, options?: { noEase?: boolean }): Float32Array;
  /** An object node's mesh vertices placed at `frame` (x, y, z each), or null. */
  vertices(node: number | string, frame: number, options?: { noEase?: boolean }): Float32Array | null;
  /** width×height×4 RGBA bytes (alpha 255): the pixels of `kf3ds render`. */
  render(options?: RenderOptions): Uint8ClampedArray;
  render(options: RenderOptions & { into: Uint8Array }): Uint8Array;
  /** A map's picture for the renderer (texture1, texture2, opacity are drawn);
   *  null removes it. True when the renderer uses it. */
  setMap(material: number | string, kind: MapKind | number, image: Picture | null): boolean;
  /** The picture of the file's bitmap background; null removes it. */
  setBackground(image: Picture | null): boolean;
  /** The scene as a .3ds file: the bytes of `kf3ds rewrite`. */
  save(options?: SaveOptions): Uint8Array;
  /** The scene as a .glb, the bytes of `kf3ds export FILE -o OUT.glb` with
   *  the same options. Throws on bad options or a limit. */
  exportGlb(options?: ExportOptions): Uint8Array;
  /** The animation as a .kfb file (docs/kfb.md), the bytes of `kf3ds bake`
   *  with the same options. Throws for a damaged or static file. */
  bake(options?: BakeOptions): Uint8Array;
  /** Gives the scene's memory back; later use throws. */
  free(): void;
}

declare const kf3ds: {
  init: typeof init;
  load: typeof load;
  version: typeof version;
  decodeCel: typeof decodeCel;
  Scene: typeof Scene;
};
export default kf3ds;
