import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// Editing and deleting one's own posts, and deleting comments, from the web. `PostService` decides who may
/// (`update`, `delete`, `deleteComment`); these pages only ask it, so a stranger's request is refused here
/// exactly as the API refuses it.
///
/// Deleting goes through a confirmation page whose form does the delete: it works without script, and a
/// stray click deletes nothing.
struct WebPostEditController {
    let posts: PostService
    let pages: WebPages

    struct EditView {
        struct Choice {
            let value: String
            let label: String
            let selected: Bool
        }

        /// A photo of the post, with its Remove box.
        struct Photo {
            let id: String
            let number: Int
            let previewURL: String
            let alt: String
            let label: String
            let removed: Bool
            /// Its place among the post's photos, 1 to their count, as a select offers it.
            let positions: [Choice]
        }

        let id: String
        let isWorkout: Bool
        let photos: [Photo]
        let hasPhotos: Bool
        let title: String
        let text: String
        let visibilities: [Choice]
        let errors: [String]
        let hasErrors: Bool
        let titleInvalid: Bool
        let textInvalid: Bool

        init(
            id: PostID, isWorkout: Bool, media: [MediaAttachment] = [], removed: Set<String> = [], title: String,
            text: String, visibility: String, group: GroupSummary? = nil, problems: [FieldError] = []
        ) {
            self.id = id.description
            self.isWorkout = isWorkout
            photos = media.enumerated().map { index, photo in
                Photo(
                    id: photo.id.description, number: index + 1, previewURL: photo.previewURL,
                    alt: photo.description ?? "",
                    label: "Remove photo \(index + 1)" + (photo.description.map { ": \($0)" } ?? ""),
                    removed: removed.contains(photo.id.description),
                    positions: media.indices.map {
                        Choice(value: String($0 + 1), label: String($0 + 1), selected: $0 == index)
                    })
            }
            hasPhotos = !photos.isEmpty
            self.title = title
            self.text = text
            let labels: [Visibility: String] = [.public: "Everyone", .followers: "Followers", .private: "Only me"]
            // A group post stays in its group (`PostService.update`): its one audience is the group.
            visibilities =
                if let group {
                    [Choice(value: Visibility.group.rawValue, label: group.name, selected: true)]
                } else {
                    Visibility.personal.map {
                        Choice(
                            value: $0.rawValue, label: labels[$0] ?? $0.rawValue, selected: $0.rawValue == visibility)
                    }
                }
            errors = problems.map { "\(EditView.label($0.field)): \($0.detail)" }
            hasErrors = !problems.isEmpty
            titleInvalid = problems.contains { $0.field == "workout.title" }
            textInvalid = problems.contains { $0.field == "text" }
        }

        private static func label(_ field: String) -> String {
            switch field {
            case "workout.title": "Title"
            case "text": "Text"
            case "visibility": "Who can see it"
            case _ where field.hasPrefix("media_ids"): "Photos"
            default: field
            }
        }
    }

    /// The post's photos as the form leaves them, or `nil` when it changes nothing: those ticked Remove leave,
    /// the others go in the positions chosen (ties keep their old order). Only the post's own photos count.
    static func photos(of post: Post, removed: Set<String>, form: WebForm) -> [MediaID]? {
        let current = post.media.map(\.id)
        let positions = Dictionary(
            zip(form.all("media_photo"), form.all("media_position").map { Int($0) ?? Int.max }),
            uniquingKeysWith: { first, _ in first })
        // Each photo's chosen position (1-based), or its place now; ties keep the old order.
        func rank(_ entry: (offset: Int, element: MediaID)) -> (Int, Int) {
            (positions[entry.element.description] ?? entry.offset + 1, entry.offset)
        }
        let kept = current.enumerated()
            .filter { !removed.contains($0.element.description) }
            .sorted { rank($0) < rank($1) }
            .map(\.element)
        return kept == current ? nil : kept
    }

    struct ConfirmView {
        let question: String
        let consequence: String
        let quote: String?
        let action: String
        let back: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("posts/:id/edit") { _, context in
            let viewer = try context.requireWebViewer()
            let post = try await posts.get(try context.webID("id"), viewer: viewer)
            guard post.author.id == viewer.id else {
                throw SpotterError.forbidden("Only the author can edit this post.")
            }
            let view = EditView(
                id: post.id, isWorkout: post.workout != nil, media: post.media, title: post.workout?.title ?? "",
                text: post.text, visibility: post.visibility.rawValue, group: post.group)
            return try await pages.page("post_edit", title: "Edit your post", content: view, context: context)
        }
        routes.post("posts/:id/edit") { _, context in
            let viewer = try context.requireWebViewer()
            let id: PostID = try context.webID("id")
            let form = context.web.form
            let post = try await posts.get(id, viewer: viewer)
            // Emptied fields count as typed (a cleared text is a choice), so `all`, not the subscript's nil.
            let title = form.all("title").first ?? post.workout?.title ?? ""
            let text = form.all("text").first ?? post.text
            let visibilityText = form["visibility"] ?? post.visibility.rawValue
            let removed = Set(form.all("media_remove"))
            let media = Self.photos(of: post, removed: removed, form: form)
            do {
                guard let visibility = Visibility(rawValue: visibilityText) else {
                    throw SpotterError.invalid("visibility", "must be Everyone, Followers or Only me")
                }
                var workout = post.workout
                workout?.title = title
                _ = try await posts.update(
                    id, with: UpdatePostRequest(text: text, visibility: visibility, workout: workout, mediaIDs: media),
                    viewer: viewer)
                return WebPages.redirect(to: "/posts/\(id)")
            } catch let error as SpotterError {
                guard case .validation(let problems) = error else { throw error }
                let view = EditView(
                    id: id, isWorkout: post.workout != nil, media: post.media, removed: removed, title: title,
                    text: text,
                    visibility: visibilityText, group: post.group, problems: problems)
                return try await pages.page(
                    "post_edit", title: "Edit your post", content: view, context: context, status: .unprocessableContent
                )
            }
        }
        routes.get("posts/:id/delete") { _, context in
            let viewer = try context.requireWebViewer()
            let post = try await posts.get(try context.webID("id"), viewer: viewer)
            guard post.author.id == viewer.id || viewer.role == .admin else {
                throw SpotterError.forbidden("Only the author can delete this post.")
            }
            let view = ConfirmView(
                question: "Delete this post?",
                consequence: "It disappears from every feed, with its comments and kudos. This can't be undone.",
                quote: post.workout?.title ?? (post.text.isEmpty ? nil : post.text), action: "/posts/\(post.id)/delete",
                back: "/posts/\(post.id)")
            return try await pages.page("confirm_delete", title: "Delete this post?", content: view, context: context)
        }
        routes.post("posts/:id/delete") { _, context in
            try await posts.delete(try context.webID("id"), viewer: try context.requireWebViewer())
            return WebPages.redirect(to: "/feed/following")
        }
        routes.get("posts/:id/comments/:comment/delete") { _, context in
            let viewer = try context.requireWebViewer()
            let id: PostID = try context.webID("id")
            let commentID: CommentID = try context.webID("comment")
            let post = try await posts.get(id, viewer: viewer)
            let page = try await posts.comments(on: id, viewer: viewer, page: PageRequest(limit: PageRequest.maxLimit))
            // The comment's text, when it is on the first page, so the person sees what they are deleting.
            let comment = page.items.first { $0.id == commentID }
            if let comment,
                !PostRules.mayDeleteComment(
                    by: viewer.id, role: viewer.role, commentAuthor: comment.author.id, postAuthor: post.author.id)
            {
                throw SpotterError.forbidden("Only the comment's author or the post's author can delete it.")
            }
            let view = ConfirmView(
                question: "Delete this comment?", consequence: "It disappears from the post for everyone.",
                quote: comment?.text, action: "/posts/\(id)/comments/\(commentID)/delete", back: "/posts/\(id)#comments"
            )
            return try await pages.page(
                "confirm_delete", title: "Delete this comment?", content: view, context: context)
        }
        routes.post("posts/:id/comments/:comment/delete") { _, context in
            let id: PostID = try context.webID("id")
            try await posts.deleteComment(try context.webID("comment"), on: id, viewer: try context.requireWebViewer())
            return WebPages.redirect(to: "/posts/\(id)#comments")
        }
        return routes
    }
}
