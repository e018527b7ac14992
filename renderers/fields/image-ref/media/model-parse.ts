/**
 * Reads a 3D file's bytes into a three.js object, apart from any drawing (so it runs without
 * WebGL, in tests too). Loaded only with the 3D viewer: it pulls in three and its loaders.
 */
import { Box3, BufferGeometry, DoubleSide, Group, Mesh, MeshStandardMaterial, Points, PointsMaterial, type Object3D } from 'three';
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import type { ModelExtension } from '../../../../definitions/files.ts';

/** The file is not a model the viewer can show: damaged, empty, or a part of the format it lacks. */
export class UnreadableModelError extends Error {
  constructor(cause?: unknown) {
    super('This 3D file could not be read.', { cause });
    this.name = 'UnreadableModelError';
  }
}

const MODEL_COLOUR = 0x8fa39a;

const text = (data: ArrayBuffer) => new TextDecoder().decode(data);

/**
 * Geometry-only formats (STL, PLY): a mesh, or points when the file has vertices but no faces.
 * Both sides are drawn: such files often mix up the winding of their faces.
 */
function fromGeometry(geometry: BufferGeometry, faces: boolean): Object3D {
  const vertexColors = geometry.hasAttribute('color');
  const color = vertexColors ? 0xffffff : MODEL_COLOUR;
  if (!faces) return new Points(geometry, new PointsMaterial({ color, vertexColors, size: 2, sizeAttenuation: false }));
  return new Mesh(geometry, new MeshStandardMaterial({ color, vertexColors, roughness: 0.75, metalness: 0.05, side: DoubleSide }));
}

/** Whether a geometry's normals are missing or all zero (many STL exporters write `normal 0 0 0`). */
function lacksNormals(geometry: BufferGeometry): boolean {
  const normals = geometry.getAttribute('normal');
  if (!normals) return true;
  for (let i = 0; i < normals.count; i++) {
    if (normals.getX(i) !== 0 || normals.getY(i) !== 0 || normals.getZ(i) !== 0) return false;
  }
  return true;
}

type Parser = (data: ArrayBuffer, path: string) => Object3D | null | Promise<Object3D | null>;

const parsers: Record<ModelExtension, Parser> = {
  stl: (data) => fromGeometry(new STLLoader().parse(data), true),
  ply: (data) => {
    const geometry = new PLYLoader().parse(data);
    return fromGeometry(geometry, geometry.index !== null);
  },
  obj: (data) => new OBJLoader().parse(text(data)),
  dae: (data, path) => new ColladaLoader().parse(text(data), path)?.scene ?? null,
  fbx: (data, path) => new FBXLoader().parse(data, path),
  gltf: async (data, path) => (await new GLTFLoader().parseAsync(data, path)).scene,
  glb: async (data, path) => (await new GLTFLoader().parseAsync(data, path)).scene,
};

/**
 * The model in `data`, in a group of its own. `path` is where the file's relative references
 * (textures, buffers) would be looked up. Rejects with UnreadableModelError when the file cannot
 * be parsed or holds nothing to show.
 */
export async function parseModel(format: ModelExtension, data: ArrayBuffer, path = ''): Promise<Object3D> {
  let object: Object3D | null;
  try {
    object = await parsers[format](data, path);
  } catch (error) {
    throw new UnreadableModelError(error);
  }
  if (!object) throw new UnreadableModelError();
  const box = new Box3().setFromObject(object);
  if (box.isEmpty() || ![box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z].every(Number.isFinite)) {
    disposeObject(object);
    throw new UnreadableModelError();
  }
  // Without normals a lit surface draws black: faces without them get their own.
  object.traverse((node) => {
    if (node instanceof Mesh && node.geometry instanceof BufferGeometry && node.geometry.hasAttribute('position') && lacksNormals(node.geometry)) {
      node.geometry.computeVertexNormals();
    }
  });
  const group = new Group();
  group.add(object);
  return group;
}

/** Frees the GPU-side resources of an object's geometries, materials and textures. */
export function disposeObject(root: Object3D) {
  root.traverse((node) => {
    const { geometry, material } = node as Partial<Mesh>;
    geometry?.dispose();
    for (const each of material ? (Array.isArray(material) ? material : [material]) : []) {
      for (const value of Object.values(each)) {
        if (value && typeof value === 'object' && (value as { isTexture?: boolean }).isTexture) (value as { dispose(): void }).dispose();
      }
      each.dispose();
    }
  });
}
