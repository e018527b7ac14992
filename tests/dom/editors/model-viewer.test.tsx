/**
 * The 3D viewer once a model is drawn: its controls and that it frees what it drew
 * when it goes. jsdom has no WebGL, so the drawing half (model-scene) is replaced by a recorder;
 * the parsing half is real.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Object3D } from 'three';
import ModelViewer from '../../../renderers/fields/image-ref/media/ModelViewer.tsx';
import { asciiStl, brokenModel } from '../../../e2e/support/media-files.ts';

const scenes = vi.hoisted(() => ({
  made: [] as { canvas: HTMLCanvasElement; model: Object3D; zoom: ReturnType<typeof vi.fn>; resetView: ReturnType<typeof vi.fn>; dispose: ReturnType<typeof vi.fn> }[],
}));
vi.mock('../../../renderers/fields/image-ref/media/model-scene.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  createModelScene: (canvas: HTMLCanvasElement, model: Object3D) => {
    const scene = { canvas, model, zoom: vi.fn(), resetView: vi.fn(), dispose: vi.fn() };
    scenes.made.push(scene);
    return scene;
  },
}));

function serve(bytes: Buffer) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => ({ ok: true, status: 200, arrayBuffer: async () => new Uint8Array(bytes).buffer })),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  scenes.made.length = 0;
});

describe('ModelViewer', () => {
  it('draws the parsed model on a focusable, described canvas with zoom and reset controls', async () => {
    const user = userEvent.setup();
    serve(asciiStl());
    render(<ModelViewer url="/files/p/shape.stl" name="shape.stl" format="stl" />);
    const reset = await screen.findByRole('button', { name: 'Reset view' });
    expect(scenes.made).toHaveLength(1);
    const canvas = screen.getByRole('img', { name: '3D model shape.stl' });
    expect(scenes.made[0]!.canvas).toBe(canvas);
    expect(canvas).toHaveAttribute('tabindex', '0');
    expect(canvas).toHaveAccessibleDescription(/Drag to turn, scroll to zoom/);
    expect(screen.queryByText('Loading the 3D viewer…')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(scenes.made[0]!.zoom).toHaveBeenLastCalledWith(0.8);
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(scenes.made[0]!.zoom).toHaveBeenLastCalledWith(1.25);
    await user.click(reset);
    expect(scenes.made[0]!.resetView).toHaveBeenCalledTimes(1);

    canvas.focus();
    await user.keyboard('+');
    expect(scenes.made[0]!.zoom).toHaveBeenCalledTimes(3);
    await user.keyboard('-');
    expect(scenes.made[0]!.zoom).toHaveBeenLastCalledWith(1.25);
  });

  it('frees the renderer and the model when it goes', async () => {
    serve(asciiStl());
    const { unmount } = render(<ModelViewer url="/files/p/shape.stl" name="shape.stl" format="stl" />);
    await screen.findByRole('button', { name: 'Reset view' });
    expect(scenes.made[0]!.dispose).not.toHaveBeenCalled();
    unmount();
    expect(scenes.made[0]!.dispose).toHaveBeenCalledTimes(1);
  });

  it('draws nothing for a broken file and offers no controls', async () => {
    serve(brokenModel());
    render(<ModelViewer url="/files/p/broken.stl" name="broken.stl" format="stl" />);
    expect(await screen.findByText(/^This 3D file could not be read\./)).toBeInTheDocument();
    expect(scenes.made).toHaveLength(0);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
