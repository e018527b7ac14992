/**
 * Draws a parsed model on a canvas with WebGL: lights, a camera fitted to the model, orbit
 * controls, drawing only when something moved. Everything it makes is freed by `dispose()`.
 */
import { Box3, DirectionalLight, HemisphereLight, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, type Object3D } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { disposeObject } from './model-parse.ts';

/** WebGL 2 is off or missing in this browser: the viewer shows a message instead. */
export class NoWebGLError extends Error {
  constructor(cause?: unknown) {
    super('WebGL is unavailable.', { cause });
    this.name = 'NoWebGLError';
  }
}

export interface ModelScene {
  /** Back to the view the model opened with. */
  resetView(): void;
  /** Moves the camera towards (factor < 1) or away from (factor > 1) the model. */
  zoom(factor: number): void;
  /** Frees the renderer, the controls and the model's geometries, materials and textures. */
  dispose(): void;
}

const VIEW_DIRECTION = new Vector3(1, 0.7, 1.2).normalize();

export function createModelScene(canvas: HTMLCanvasElement, model: Object3D): ModelScene {
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });
  } catch (error) {
    throw new NoWebGLError(error);
  }
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));

  const scene = new Scene();
  const camera = new PerspectiveCamera(45, 1, 0.01, 1000);
  scene.add(new HemisphereLight(0xffffff, 0x555555, 2.2));
  const keyLight = new DirectionalLight(0xffffff, 1.6);
  keyLight.position.set(0.5, 1, 0.8);
  // The light follows the camera, so whatever side is turned towards the viewer is lit.
  camera.add(keyLight);
  scene.add(camera);
  scene.add(model);

  const controls = new OrbitControls(camera, canvas);
  controls.listenToKeyEvents(canvas);

  // Fit: the model's bounding sphere fills the view, seen from above and to the side.
  const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere());
  const radius = sphere.radius > 0 ? sphere.radius : 1;
  const distance = (radius / Math.sin((camera.fov * Math.PI) / 360)) * 1.1;
  camera.position.copy(sphere.center).addScaledVector(VIEW_DIRECTION, distance);
  camera.near = distance / 1000;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(sphere.center);
  controls.minDistance = radius / 50;
  controls.maxDistance = distance * 20;
  controls.update();
  controls.saveState();

  const draw = () => renderer.render(scene, camera);
  const resize = () => {
    const width = canvas.clientWidth || canvas.width;
    const height = canvas.clientHeight || canvas.height;
    if (width === 0 || height === 0) return;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    draw();
  };
  controls.addEventListener('change', draw);
  const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(resize);
  observer?.observe(canvas);
  resize();

  return {
    resetView() {
      controls.reset();
      draw();
    },
    zoom(factor) {
      const offset = camera.position.clone().sub(controls.target).multiplyScalar(factor);
      const length = Math.min(Math.max(offset.length(), controls.minDistance), controls.maxDistance);
      camera.position.copy(controls.target).add(offset.setLength(length));
      controls.update();
      draw();
    },
    dispose() {
      observer?.disconnect();
      controls.removeEventListener('change', draw);
      controls.stopListenToKeyEvents();
      controls.dispose();
      scene.remove(model);
      disposeObject(model);
      renderer.dispose();
      renderer.forceContextLoss();
    },
  };
}
