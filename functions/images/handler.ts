import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery } from '#shared/http/query.ts';
import { DIFF_REFUSALS, rawRoute, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, type ApiVersion, SINCE_26 } from '#shared/versions.ts';
import {
  categoryImages,
  deleteImage,
  getByVersion,
  getCurrent,
  IMAGE_ORDER,
  imageDiff,
  listImages,
  type Owner,
  postImage,
  productImages,
  putImage,
  sellerImages,
} from './images.ts';
import { IMAGE_BODY } from './media.ts';

/** The image endpoints of one owner (spec 4.6): `versions` have them all but POST, which `postVersions` have. */
function imageRoutes(owner: Owner, versions: readonly ApiVersion[], postVersions: readonly ApiVersion[]): Route[] {
  const current = `${owner.path}/current/{pictureFilename}` as const;
  const common = { versions, access: access.sellerReference, errors: [['NotFound'], ['ReferenceNotFound']] as const };
  const bytes = { media: IMAGE_BODY.mediaTypes };
  // The reference's words: "a product's images", "the seller's images".
  const whose = owner.entity ? `a ${owner.entity.noun.toLowerCase()}'s` : "the seller's";
  const kept =
    "Each image is kept by its file name, in versions: a write makes a new version of it and of the seller's data, which registers sync.";
  return [
    rawRoute({
      ...common,
      versions: postVersions,
      summary: `Uploads one of ${whose} images`,
      description: `Stores the bytes (PNG, JPEG, GIF or WebP) as a new image of ${whose} under a file name of the service's, which it answers. ${kept}`,
      method: 'POST',
      path: owner.path,
      raw: IMAGE_BODY,
      responses: { 201: 'identifierResult' },
      handle: (r) => postImage(owner, r),
    }),
    route({
      ...common,
      summary: `Lists ${whose} images`,
      description: `${whose.charAt(0).toUpperCase()}${whose.slice(1)} current images, by the list parameters: v15 answers their paths, v26 and v33 their records (file name, version, whose image it is, when it changed).`,
      method: 'GET',
      path: owner.path,
      query: listQuery(IMAGE_ORDER),
      responses: { 200: { 15: { list: 'imagePath' }, 26: { list: 'imageRecord' }, 33: { list: 'imageRecord' } } },
      handle: (r) => listImages(owner, r),
    }),
    route({
      ...common,
      summary: `Reads one of ${whose} images`,
      description: `The current version's bytes of one of ${whose} images, with its ETag (304 to If-None-Match).`,
      method: 'GET',
      path: current,
      conditional: 'read',
      responses: { 200: bytes },
      handle: (r) => getCurrent(owner, r),
    }),
    rawRoute({
      ...common,
      summary: `Writes one of ${whose} images`,
      description: `Stores the bytes as the image of that file name: its next version (204), or a new image (201). ${kept}`,
      method: 'PUT',
      path: current,
      raw: IMAGE_BODY,
      conditional: 'write',
      responses: { 201: 'identifierResult', 204: null },
      handle: (r) => putImage(owner, r),
    }),
    route({
      ...common,
      summary: `Deletes one of ${whose} images`,
      description: `Removes the image of that file name; a register syncing the seller's data sees it deleted in the diff.`,
      method: 'DELETE',
      path: current,
      conditional: 'write',
      responses: { 204: null },
      handle: (r) => deleteImage(owner, r),
    }),
    route({
      ...common,
      summary: `Reads a version of one of ${whose} images`,
      description: `The bytes of one version of an image, with its ETag. In v15 the version is \`current\` (the bytes) or \`version\` (the current version's record).`,
      method: 'GET',
      path: `${owner.path}/{pictureVersion}/{pictureFilename}` as const,
      conditional: 'read',
      // v15's `version` answers the current version's record instead of its bytes.
      responses: { 200: { 15: { ...bytes, orJson: 'imageRecord' }, 26: bytes, 33: bytes } },
      handle: (r) => getByVersion(owner, r),
    }),
    route({
      ...common,
      summary: `Reads ${whose} images changed between two versions`,
      description: `The records of ${whose} images written or deleted after the first version up to the second, for a register syncing offline: a deleted image's record stays, marked \`deleted: true\`.`,
      method: 'GET',
      path: `/{sellerId}/${owner.diff}/{versionFrom}/{versionTo}` as const,
      // Images are part of the catalog a register syncs offline: the SYNCHRONIZATION feature, as the catalog diffs.
      feature: 'SYNCHRONIZATION',
      responses: { 200: { list: 'imageRecord' } },
      errors: [...common.errors, ...DIFF_REFUSALS],
      handle: (r) => imageDiff(owner, r),
    }),
  ];
}

/**
 * Images of the seller, its categories and its products (spec 4.6). v15 has the seller's and the
 * products' images without POST; categories' images start with v26.
 */
export const routes: Route[] = [
  ...imageRoutes(sellerImages, ALL_VERSIONS, SINCE_26),
  ...imageRoutes(categoryImages, SINCE_26, SINCE_26),
  ...imageRoutes(productImages, ALL_VERSIONS, SINCE_26),
];

export const handler = httpApi(routes);
