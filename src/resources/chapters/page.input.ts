import { refuse } from '../../core/errors.ts';
import type { ChapterRules } from './chapter.rules.ts';
import { filled } from './input-text.ts';
import type { Page, PageBlock } from './page.schema.ts';
import { creditFor } from './photo-credit.ts';

const BASE = 'pages';

/** The pages as stored: every spot and photo checked, empty optional texts left out. */
export async function normalisePages(pages: readonly Page[], rules: ChapterRules): Promise<Page[]> {
  const keys = pages.flatMap((p) =>
    p.blocks.flatMap((b) => (b.kind === 'spot' ? [b.spotKey] : b.kind === 'map' ? b.spotKeys : [])),
  );
  const spots = await rules.spotsByKey(keys);
  const spotAt = (path: string, key: string) => {
    const spot = spots.get(key);
    if (!spot) throw refuse(path, `no spot of this guide has the key "${key}".`);
    if (spot.archived) rules.warn(`${path}: the spot "${key}" is archived; buyers will not see it here.`);
  };
  const out: Page[] = [];
  for (const [i, page] of pages.entries()) {
    const blocks: PageBlock[] = [];
    for (const [j, block] of page.blocks.entries()) {
      blocks.push(await writeBlock(block, `${BASE}[${i}].blocks[${j}]`, spotAt, rules));
    }
    const title = filled(page.title);
    out.push(title === undefined ? { blocks } : { title, blocks });
  }
  return out;
}

async function writeBlock(
  block: PageBlock,
  path: string,
  spotAt: (path: string, key: string) => void,
  rules: ChapterRules,
): Promise<PageBlock> {
  switch (block.kind) {
    case 'spot':
      spotAt(`${path}.spotKey`, block.spotKey);
      return compact(block);
    case 'map': {
      block.spotKeys.forEach((key, k) => {
        const first = block.spotKeys.indexOf(key);
        if (first !== k) throw refuse(`${path}.spotKeys[${k}]`, `"${key}" is already spotKeys[${first}].`);
        spotAt(`${path}.spotKeys[${k}]`, key);
      });
      return compact(block);
    }
    case 'photo':
      return writePhoto(block, path, rules);
    default:
      return compact(block);
  }
}

async function writePhoto(block: Extract<PageBlock, { kind: 'photo' }>, path: string, rules: ChapterRules) {
  if ((block.mediaId === undefined) === (block.storageId === undefined)) {
    throw refuse(
      `${path}.mediaId`,
      'a photo block names its photo once: give mediaId or storageId, not both, not neither.',
    );
  }
  if (block.mediaId !== undefined) {
    if (block.credit !== undefined) {
      throw refuse(`${path}.credit`, 'a photo by mediaId shows its own credit; set it with update_media.');
    }
    await rules.requireGuidePhoto(`${path}.mediaId`, block.mediaId);
    return compact(block);
  }
  await rules.requireOwnImage(`${path}.storageId`, block.storageId as string);
  const credit = creditFor(path, block.storageId, block.credit, rules.warn, { photo: 'storageId', credit: 'credit' });
  return compact({ ...block, credit });
}

/** The block without optional texts left empty. */
function compact<B extends PageBlock>(block: B): B {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    if (value === undefined || (typeof value === 'string' && value.trim() === '' && key !== 'text')) continue;
    out[key] = value;
  }
  return out as B;
}
