/**
 * The 3D viewer: fetches the file, parses it (model-parse), then draws it
 * (model-scene). Loaded only when a model is shown: it is the one module that brings three in.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Maximize, ZoomIn, ZoomOut } from 'lucide-react';
import type { ModelExtension } from '../../../../definitions/files.ts';
import { useFormat } from '../../../messages/use-format.ts';
import { disposeObject, parseModel } from './model-parse.ts';
import { createModelScene, NoWebGLError, type ModelScene } from './model-scene.ts';

type Status = 'loading' | 'ready' | 'unreadable' | 'unavailable' | 'noWebgl';

const statusMessages = {
  loading: 'editor.media.model.loading',
  unreadable: 'editor.media.model.unreadable',
  unavailable: 'editor.media.model.unavailable',
  noWebgl: 'editor.media.model.noWebgl',
} as const;

/** Where the file's relative references (textures, buffers) would be: its URL's folder. */
function folderOf(url: string): string {
  try {
    return new URL('.', new URL(url, window.location.href)).href;
  } catch {
    return '';
  }
}

const ZOOM_STEP = 0.8;

export default function ModelViewer({ url, name, format }: { url: string; name: string; format: ModelExtension }) {
  const t = useFormat();
  const helpId = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<ModelScene | null>(null);
  const [status, setStatus] = useState<Status>('loading');

  useEffect(() => {
    const abort = new AbortController();
    let scene: ModelScene | undefined;
    setStatus('loading');
    void (async () => {
      let data: ArrayBuffer;
      try {
        const response = await fetch(url, { signal: abort.signal, credentials: 'same-origin' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        data = await response.arrayBuffer();
      } catch {
        if (!abort.signal.aborted) setStatus('unavailable');
        return;
      }
      if (abort.signal.aborted) return;
      let model;
      try {
        model = await parseModel(format, data, folderOf(url));
      } catch {
        if (!abort.signal.aborted) setStatus('unreadable');
        return;
      }
      const canvas = canvasRef.current;
      if (abort.signal.aborted || !canvas) {
        disposeObject(model);
        return;
      }
      try {
        scene = createModelScene(canvas, model);
      } catch (error) {
        disposeObject(model);
        setStatus(error instanceof NoWebGLError ? 'noWebgl' : 'unreadable');
        return;
      }
      sceneRef.current = scene;
      setStatus('ready');
    })();
    return () => {
      abort.abort();
      scene?.dispose();
      sceneRef.current = null;
    };
  }, [url, format]);

  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    if (event.key === '+' || event.key === '=') sceneRef.current?.zoom(ZOOM_STEP);
    else if (event.key === '-' || event.key === '_') sceneRef.current?.zoom(1 / ZOOM_STEP);
    else return;
    event.preventDefault();
  };

  const failed = status !== 'loading' && status !== 'ready';
  return (
    <div className="media-model" data-status={status}>
      <div className="media-model-stage">
        <canvas
          key={url}
          ref={canvasRef}
          className="media-model-canvas"
          hidden={failed}
          role="img"
          aria-label={t('editor.media.model.label', { name })}
          aria-describedby={status === 'ready' ? helpId : undefined}
          tabIndex={status === 'ready' ? 0 : -1}
          onKeyDown={onKeyDown}
        />
        <p role="status" className={failed ? 'media-model-message media-model-problem' : 'media-model-message'}>
          {status === 'ready' ? '' : t(statusMessages[status])}
        </p>
      </div>
      {status === 'ready' && (
        <div className="media-model-toolbar">
          <p id={helpId} className="media-model-help">
            {t('editor.media.model.help')}
          </p>
          <button type="button" className="icon-button icon-button-small" aria-label={t('editor.media.model.zoomIn')} title={t('editor.media.model.zoomIn')} onClick={() => sceneRef.current?.zoom(ZOOM_STEP)}>
            <ZoomIn aria-hidden size={16} />
          </button>
          <button type="button" className="icon-button icon-button-small" aria-label={t('editor.media.model.zoomOut')} title={t('editor.media.model.zoomOut')} onClick={() => sceneRef.current?.zoom(1 / ZOOM_STEP)}>
            <ZoomOut aria-hidden size={16} />
          </button>
          <button type="button" className="button button-small" onClick={() => sceneRef.current?.resetView()}>
            <Maximize aria-hidden size={14} /> {t('editor.media.model.reset')}
          </button>
        </div>
      )}
    </div>
  );
}
