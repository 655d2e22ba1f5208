import Foundation
import HTTPTypes
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
    /// What "now" is for the builder's "Done at" (not in the future).
    let clock: any WallClock

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
        /// The workout builder, holding the workout's exercises, sets and times; `nil` for a note, and for a
        /// workout signed elsewhere (`signedNote` says why).
        let builder: WorkoutBuilderView?
        let signedNote: String?
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
            id: PostID, isWorkout: Bool, builder: WorkoutBuilderView? = nil, signed: Bool = false,
            media: [MediaAttachment] = [], removed: Set<String> = [], title: String, text: String,
            visibility: String, group: GroupSummary? = nil, problems: [FieldError] = []
        ) {
            self.id = id.description
            self.isWorkout = isWorkout
            self.builder = builder
            signedNote =
                signed
                ? "This workout came from a Nostr event signed with your key: its exercises, sets and title are "
                    + "changed in the app that signed it. Its text, photos and audience can change here." : nil
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
            // With the builder, its summary lists what is wrong, each item linked to its field.
            errors = builder == nil ? problems.map { "\(EditView.label($0.field)): \($0.detail)" } : []
            hasErrors = !errors.isEmpty
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
            guard PostRules.mayEditPost(by: viewer.id, author: post.author.id) else {
                return refusal(post, context: context)
            }
            let signed = post.workout != nil ? try await posts.isSigned(post.id) : false
            let builder =
                signed
                ? nil
                : post.workout.map { workout in
                    self.builder(
                        WorkoutEdit(original: workout, units: WebDisplay(viewer: viewer).units, timeZone: zone(viewer))
                            .drawn, problems: [], viewer: viewer)
                }
            let view = EditView(
                id: post.id, isWorkout: post.workout != nil, builder: builder, signed: signed, media: post.media,
                title: post.workout?.title ?? "", text: post.text, visibility: post.visibility.rawValue,
                group: post.group)
            return try await pages.page("post_edit", title: "Edit your post", content: view, context: context)
        }
        routes.post("posts/:id/edit") { _, context in try await save(context) }
        routes.get("posts/:id/delete") { _, context in
            let viewer = try context.requireWebViewer()
            let post = try await posts.get(try context.webID("id"), viewer: viewer)
            guard PostRules.mayDeletePost(by: viewer.id, role: viewer.role, author: post.author.id) else {
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

    /// Someone else's post: not theirs to edit, said in words on a titled page, with the way back to it.
    private func refusal(_ post: Post, context: AppRequestContext) -> Response {
        pages.error(
            status: .forbidden, title: "You can't edit this post", detail: "Only the author can edit this post.",
            context: context, back: ("/posts/\(post.id)", "Back to the post"))
    }

    /// Saves the edit page: the text, photos and audience, and a workout's builder (or, from a form without it,
    /// its title). A refusal draws the page again (422) with everything typed kept and each wrong field marked.
    private func save(_ context: AppRequestContext) async throws -> Response {
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
        let signed = post.workout != nil ? try await posts.isSigned(id) : false
        let edit = post.workout.map {
            WorkoutEdit(original: $0, units: WebDisplay(viewer: viewer).units, timeZone: zone(viewer))
        }
        var workout = post.workout
        var checked: WorkoutForm?
        if let edit, !signed, WorkoutEdit.hasBuilder(form) {
            let read = edit.read(form, now: clock.now)
            checked = read.form
            workout = read.workout
        } else if !signed {
            workout?.title = title
        }
        func redraw(_ problems: [FieldError], status: HTTPResponse.Status) async throws -> Response {
            var builder: WorkoutBuilderView?
            if let edit, !signed {
                var drawn = edit.drawn
                drawn.title = title
                var marked = checked ?? WorkoutForm(drawn, units: edit.units, timeZone: edit.timeZone, now: clock.now)
                marked.explain(problems)
                builder = self.builder(marked.draft, problems: Self.onEditPage(marked.problems), viewer: viewer)
            }
            let view = EditView(
                id: id, isWorkout: post.workout != nil, builder: builder, signed: signed, media: post.media,
                removed: removed, title: title, text: text, visibility: visibilityText, group: post.group,
                problems: problems)
            return try await pages.page(
                "post_edit", title: "Edit your post", content: view, context: context, status: status)
        }
        if let checked, !checked.problems.isEmpty { return try await redraw([], status: .unprocessableContent) }
        do {
            guard let visibility = Visibility(rawValue: visibilityText) else {
                throw SpotterError.invalid("visibility", "must be Everyone, Followers or Only me")
            }
            _ = try await posts.update(
                id,
                with: UpdatePostRequest(
                    text: text, visibility: visibility, workout: signed ? nil : workout, mediaIDs: media),
                viewer: viewer)
            return WebPages.redirect(to: "/posts/\(id)")
        } catch SpotterError.validation(let problems) {
            return try await redraw(problems, status: .unprocessableContent)
        } catch SpotterError.conflict(let field, let detail) {
            return try await redraw([FieldError(field: field, detail: detail)], status: .conflict)
        }
    }

    /// The builder for the edit page, in the viewer's units and time zone.
    private func builder(
        _ draft: WorkoutDraft, problems: [WorkoutForm.Problem], viewer: AccountRecord
    ) -> WorkoutBuilderView {
        WorkoutBuilderView(
            draft: draft, problems: problems, units: WebDisplay(viewer: viewer).units, timeZone: zone(viewer),
            now: clock.now, available: [])
    }

    private func zone(_ viewer: AccountRecord) -> TimeZone { WebDisplay(viewer: viewer).timeZone }

    /// The builder's problems with the edit page's own inputs for the text, audience and photos.
    private static func onEditPage(_ problems: [WorkoutForm.Problem]) -> [WorkoutForm.Problem] {
        let inputs = ["workout-text": "edit-text", "workout-visibility": "edit-visibility", "workout-photo": ""]
        return problems.map {
            WorkoutForm.Problem(input: inputs[$0.input] ?? $0.input, label: $0.label, detail: $0.detail)
        }
    }
}
